/**
 * The Go package the Go e2e tests share: `Short(u, n)`, the first n hex digits of a UUID,
 * with a planted bug (it keeps the dash after 8 digits, so TestShortTwelve fails on main),
 * two tests that pass on main (TestShortFour, TestUpper), one dependency from the Go proxy
 * (github.com/google/uuid), and go.sum written at set-up by `go mod tidy` (never committed
 * here). Imported as a namespace: `shortid.sources('lib')`.
 */
import { execa } from 'execa';

export const BUGGY = 'return u.String()[:n]';
export const RIGHT = 'return strings.ReplaceAll(u.String(), "-", "")[:n]';

/** go.mod of module `path` needing uuid. */
export const goMod = (path: string): string => `module ${path}\n\ngo 1.22\n\nrequire github.com/google/uuid v1.6.0\n`;

/** The package's source (`shortid.go`) and tests (`shortid_test.go`) as package `pkg`. */
export function sources(pkg: string): { source: string; tests: string } {
  const source = [
    `// Package ${pkg} shortens UUIDs for display.`,
    `package ${pkg}`,
    '',
    'import (',
    '\t"strings"',
    '',
    '\t"github.com/google/uuid"',
    ')',
    '',
    "// Short returns the first n hex digits of u (the dashes of u's text form are not digits).",
    'func Short(u uuid.UUID, n int) string {',
    `\t${BUGGY}`,
    '}',
    '',
    "// Upper returns u's text form in upper case.",
    'func Upper(u uuid.UUID) string {',
    '\treturn strings.ToUpper(u.String())',
    '}',
    '',
  ].join('\n');
  const tests = [
    `package ${pkg}`,
    '',
    'import (',
    '\t"testing"',
    '',
    '\t"github.com/google/uuid"',
    ')',
    '',
    'var id = uuid.MustParse("6ba7b810-9dad-11d1-80b4-00c04fd430c8")',
    '',
    'func TestShortFour(t *testing.T) {',
    '\tif got := Short(id, 4); got != "6ba7" {',
    '\t\tt.Errorf("Short(id, 4) = %q, want %q", got, "6ba7")',
    '\t}',
    '}',
    '',
    'func TestShortTwelve(t *testing.T) {',
    '\tif got := Short(id, 12); got != "6ba7b8109dad" {',
    '\t\tt.Errorf("Short(id, 12) = %q, want %q", got, "6ba7b8109dad")',
    '\t}',
    '}',
    '',
    'func TestUpper(t *testing.T) {',
    '\tif got := Upper(id); got != "6BA7B810-9DAD-11D1-80B4-00C04FD430C8" {',
    '\t\tt.Errorf("Upper(id) = %q", got)',
    '\t}',
    '}',
    '',
  ].join('\n');
  return { source, tests };
}

/** Writes go.sum for the module in `dir` from the proxy, as its users would commit it. */
export async function tidy(dir: string): Promise<void> {
  await execa('go', ['mod', 'tidy'], { cwd: dir, env: { GOTOOLCHAIN: 'local', GOFLAGS: '-mod=mod' } });
}
