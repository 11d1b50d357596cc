/**
 * Collects a stream's text up to a cap, keeping the head AND the tail. Build tools
 * print the useful part at both ends (the first error, the final summary), so simply
 * truncating would drop the verdict of a long test run; buffering everything would let
 * a chatty command exhaust the worker's memory.
 */

export const DEFAULT_OUTPUT_CAP_CHARS = 256 * 1024;

export class CappedText {
  private head = '';
  private tail = '';
  private omitted = 0;
  private readonly headLimit: number;
  private readonly tailLimit: number;

  constructor(capChars: number = DEFAULT_OUTPUT_CAP_CHARS) {
    this.headLimit = Math.floor(capChars / 2);
    this.tailLimit = capChars - this.headLimit;
  }

  append(chunk: string): void {
    if (this.omitted === 0 && this.tail === '' && this.head.length + chunk.length <= this.headLimit) {
      this.head += chunk;
      return;
    }
    if (this.head.length < this.headLimit && this.tail === '' && this.omitted === 0) {
      const room = this.headLimit - this.head.length;
      this.head += chunk.slice(0, room);
      chunk = chunk.slice(room);
    }
    const combined = this.tail + chunk;
    if (combined.length > this.tailLimit) {
      this.omitted += combined.length - this.tailLimit;
      this.tail = combined.slice(combined.length - this.tailLimit);
    } else {
      this.tail = combined;
    }
  }

  toString(): string {
    if (this.omitted === 0) return this.head + this.tail;
    return `${this.head}\n[… ${this.omitted} characters omitted …]\n${this.tail}`;
  }
}
