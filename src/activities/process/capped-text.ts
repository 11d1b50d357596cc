/**
 * The one output capper: collects text up to a cap, keeping the head AND the tail.
 * Build tools print the useful part at both ends (the first error, the final summary),
 * so simply truncating would drop the verdict of a long test run; buffering everything
 * would let a chatty command exhaust the worker's memory. Used for whole strings (tool
 * output shown to the model), streams in the worker (setup commands) and, as source
 * text, inside the spawner helper (spawner/spawner-program.ts embeds
 * `createOutputCap.toString()`, so the function must stay self-contained: no imports,
 * no inner function values, which a bundler would wrap in helpers the helper lacks).
 */

export const DEFAULT_OUTPUT_CAP_CHARS = 256 * 1024;

export interface OutputCap {
  /** Adds a chunk; false when it overflowed the cap (or an earlier chunk did). */
  append(chunk: string): boolean;
  /** The kept head, the marker naming what was omitted, the kept tail. */
  text(): string;
  truncated(): boolean;
}

/**
 * A cap of `limit` characters: `headShare` of it for the head, the rest for the tail;
 * `marker(omitted)` between them once anything was dropped.
 */
export function createOutputCap(limit: number, headShare: number, marker: (omitted: number) => string): OutputCap {
  const headLimit = Math.floor(limit * headShare);
  const tailLimit = limit - headLimit;
  let head = '';
  let tail = '';
  let omitted = 0;
  return {
    append(chunk: string): boolean {
      if (head.length < headLimit && tail === '' && omitted === 0) {
        const room = headLimit - head.length;
        head += chunk.slice(0, room);
        chunk = chunk.slice(room);
      }
      if (chunk === '') return true;
      const combined = tail + chunk;
      if (combined.length > tailLimit) {
        omitted += combined.length - tailLimit;
        tail = combined.slice(combined.length - tailLimit);
      } else tail = combined;
      return omitted === 0;
    },
    text(): string {
      return omitted === 0 ? head + tail : head + marker(omitted) + tail;
    },
    truncated(): boolean {
      return omitted > 0;
    },
  };
}

/** The marker of streamed command output (the spawner's `headTail` mode and CappedText). */
export const streamMarker = (omitted: number): string => `\n[… ${omitted} characters omitted …]\n`;

/** A stream's text capped to `capChars`, half head, half tail. */
export class CappedText {
  private readonly cap: OutputCap;

  constructor(capChars: number = DEFAULT_OUTPUT_CAP_CHARS) {
    this.cap = createOutputCap(capChars, 0.5, streamMarker);
  }

  append(chunk: string): void {
    this.cap.append(chunk);
  }

  toString(): string {
    return this.cap.text();
  }
}
