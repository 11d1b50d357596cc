/**
 * The one owner shape every workflow's session shares (run, batch, pipeline, watch): the
 * state is an immutable value behind a private setter, and it changes only by a named,
 * pure transition from the workflow's `state/` folder, handed to `apply` (or to `take`,
 * when the transition also hands out what it took). Naming every change keeps each one
 * unit-testable without Temporal and lets test/architecture/state-owner.test.ts find an
 * unnamed one (an inline lambda) by reading the sources.
 *
 * A session's event-named methods (`cancel`, `dispatch`, `polled`…) are one `apply` plus
 * the effect the event has outside the state (Web UI details, search attributes), in the
 * order the workflow issued them before: replay depends on that order.
 */

/** A pure state change: the state and the event's arguments in, the next state out. */
export type Transition<S, A extends unknown[]> = (state: S, ...args: A) => S;

/** A pure state change that also hands out what it took from the state. */
export type Taker<S, A extends unknown[], T extends { readonly state: S }> = (state: S, ...args: A) => T;

export class StateOwner<S> {
  #state: S;

  constructor(initial: S) {
    this.#state = initial;
  }

  get state(): S {
    return this.#state;
  }

  /** A named transition applied to the state: `session.apply(goToStep, next)`. */
  apply<A extends unknown[]>(transition: Transition<S, A>, ...args: A): void {
    this.#update(transition(this.#state, ...args));
  }

  /** A named transition that also hands out what it took (`session.take(takeStepInputs)`). */
  take<A extends unknown[], T extends { readonly state: S }>(taker: Taker<S, A, T>, ...args: A): Omit<T, 'state'> {
    const { state, ...taken } = taker(this.#state, ...args);
    this.#update(state);
    return taken;
  }

  /**
   * Called after every change (and by a session that republishes without one): the run
   * republishes its details here; sessions whose events publish themselves leave it empty.
   */
  protected changed(): void {}

  #update(next: S): void {
    this.#state = next;
    this.changed();
  }
}
