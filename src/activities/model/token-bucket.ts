/** The token bucket behind the model-rate governor. PURE (time is passed in). */

const MINUTE = 60_000;

/** A token bucket refilling continuously at `capacity` per minute; the level may go negative (debt). */
export class Bucket {
  level: number;
  constructor(
    public capacity: number,
    private updatedAt: number,
  ) {
    this.level = capacity;
  }

  get perMs(): number {
    return this.capacity / MINUTE;
  }

  refill(now: number): void {
    if (now > this.updatedAt) this.level = Math.min(this.capacity, this.level + (now - this.updatedAt) * this.perMs);
    this.updatedAt = Math.max(this.updatedAt, now);
  }

  /** Milliseconds until `amount` fits (amounts above capacity wait for a full bucket). */
  waitFor(amount: number, now: number): number {
    this.refill(now);
    const need = Math.min(amount, this.capacity);
    return this.level >= need ? 0 : Math.ceil((need - this.level) / this.perMs);
  }

  take(amount: number): void {
    this.level -= amount;
  }
}
