/**
 * The cursor over the hits of a node search: the first hit is current as soon as the query changes, and
 * Enter / ↓ / ↑ step through the hits (wrapping around at both ends).
 */

/**
 * A list of hits and the one shown now.
 */
export class SearchCursor<T> {
  private _hits: readonly T[] = [];
  private _index = -1;

  /** Every hit, in graph order. */
  get hits(): readonly T[] {
    return this._hits;
  }

  /** The hit shown now (null: none). */
  get current(): T | null {
    return this._index >= 0 ? this._hits[this._index] : null;
  }

  /** The position of the current hit (-1: none). */
  get index(): number {
    return this._index;
  }

  /**
   * New hits for a new query: the first one becomes current. Returns it (null: no hit).
   */
  set(hits: readonly T[]): T | null {
    this._hits = hits;
    this._index = hits.length > 0 ? 0 : -1;
    return this.current;
  }

  /**
   * Make a given hit current (a click on its result chip); false when it is not a hit.
   */
  moveTo(hit: T): boolean {
    const i = this._hits.indexOf(hit);
    if (i >= 0) {
      this._index = i;
    }
    return i >= 0;
  }

  /**
   * Step `delta` hits forward (negative: back), wrapping around. Returns the new current hit.
   */
  step(delta: number): T | null {
    const n = this._hits.length;
    if (n === 0) {
      return null;
    }
    this._index = (((this._index + delta) % n) + n) % n;
    return this.current;
  }

  /** No query: no hits. */
  clear(): void {
    this.set([]);
  }

  /** '2 / 7' for the second of seven hits; '' without hits. */
  label(): string {
    return this._hits.length > 0 ? `${this._index + 1} / ${this._hits.length}` : '';
  }
}
