/**
 * The row alignment of the two bytecode panes in the page: each pane publishes the blocks of rows of one
 * source line it drew (`bytecodeModel.lineBlocks`); when both show the same frame, side by side, the
 * aligner measures the blocks, puts a blank spacer row above the blocks that must move down
 * (`bytecodeModel.alignBlocks`, `spacerHeights`) and scrolls the two panes together.
 *
 * Heights are measured, not counted, so wrapped arguments and expanded folds stay aligned; the aligner
 * measures again when a pane changes width or a listing height (ResizeObservers) and when a fold opens
 * (`schedule()`). Each pane's
 * body carries `data-align`: 'on' while aligned, 'off' otherwise (the toggle is off, a pane shows
 * decompiled source, the panes are stacked or one is maximised over the other).
 */
import type { IViewContext } from '../context';
import { alignBlocks, spacerHeights } from '../../model/bytecodeModel';
import type { Frame } from '../../schema';

/** Which bytecode a pane shows. */
export type BytecodeKind = 'original' | 'modified';

/** One drawn block: its line and its first row (a direct child of `table`). */
export interface IDrawnBlock {
  readonly line: number | null;
  readonly first: HTMLElement;
}

/** What a pane drew for a frame. */
export interface IDrawnListing {
  readonly frame: Frame;
  readonly table: HTMLElement;
  readonly blocks: readonly IDrawnBlock[];
}

/** CSS class of the blank rows the aligner inserts. */
export const SPACER_CLASS = 'jp-DynamoExplorer-alignSpacer';

/** Cells in a spacer row: one per column of a bytecode row, so that its background spans the row. */
const SPACER_CELLS = 5;

/** The aligner of each rendered report, shared by its two bytecode panes. */
const ALIGNERS = new WeakMap<IViewContext, BytecodeAligner>();

/**
 * Keeps the original and modified bytecode of a frame aligned by source line.
 */
export class BytecodeAligner {
  private readonly _bodies = new Map<BytecodeKind, HTMLElement>();
  private readonly _listings = new Map<BytecodeKind, IDrawnListing | null>();
  private readonly _spacers = new Map<HTMLElement, HTMLElement>();
  private _enabled = true;
  private _scheduled = false;
  private _aligned = false;
  private _echo: { body: HTMLElement; top: number } | null = null;
  private readonly _resize: ResizeObserver | null = null;
  private readonly _sizes = new Map<Element, number>();
  private readonly _tables = new Set<Element>();

  /** The aligner of a report view (made on first use). */
  static of(ctx: IViewContext): BytecodeAligner {
    let aligner = ALIGNERS.get(ctx);
    if (!aligner) {
      aligner = new BytecodeAligner();
      ALIGNERS.set(ctx, aligner);
    }
    return aligner;
  }

  constructor() {
    if (typeof ResizeObserver !== 'undefined') {
      // A body that changes width re-wraps its rows; a table that changes height has rows of new heights
      // (a font loaded late). The aligner's own spacers leave a table as high as it found it.
      this._resize = new ResizeObserver(entries => {
        let changed = false;
        for (const entry of entries) {
          const size = Math.round(this._tables.has(entry.target) ? entry.contentRect.height : entry.contentRect.width);
          if (this._sizes.get(entry.target) !== size) {
            this._sizes.set(entry.target, size);
            changed = true;
          }
        }
        if (changed) {
          this.schedule();
        }
      });
    }
  }

  /** Whether alignment is asked for (the toolbar toggle). */
  get enabled(): boolean {
    return this._enabled;
  }

  /** Whether the panes are aligned now. */
  get aligned(): boolean {
    return this._aligned;
  }

  /**
   * Register a pane's scrolling body (once, when the pane is made).
   */
  attach(kind: BytecodeKind, body: HTMLElement): void {
    this._bodies.set(kind, body);
    body.dataset.align = 'off';
    body.addEventListener('scroll', () => this._onScroll(kind));
    this._resize?.observe(body);
  }

  /**
   * Record what a pane drew (null: no bytecode listing) and align again.
   */
  publish(kind: BytecodeKind, listing: IDrawnListing | null): void {
    const old = this._listings.get(kind)?.table;
    if (old && old !== listing?.table) {
      this._resize?.unobserve(old);
      this._tables.delete(old);
      this._sizes.delete(old);
    }
    if (listing && !this._tables.has(listing.table)) {
      this._tables.add(listing.table);
      this._resize?.observe(listing.table);
    }
    this._listings.set(kind, listing);
    this.schedule();
  }

  /**
   * Turn alignment on or off.
   */
  setEnabled(on: boolean): void {
    this._enabled = on;
    this.schedule();
  }

  /**
   * Align at the next frame (several changes in a row align once).
   */
  schedule(): void {
    if (this._scheduled) {
      return;
    }
    this._scheduled = true;
    const run = (): void => {
      this._scheduled = false;
      this.align();
    };
    if (typeof requestAnimationFrame === 'function') {
      requestAnimationFrame(run);
    } else {
      setTimeout(run, 0);
    }
  }

  /**
   * Measure both listings and set the spacers now (or remove them when alignment does not apply).
   */
  align(): void {
    const a = this._listings.get('original');
    const b = this._listings.get('modified');
    const original = this._bodies.get('original');
    const modified = this._bodies.get('modified');
    // Measuring without the spacers may clamp a scrolled pane: its place is put back after.
    const scrolled = original?.scrollTop ?? 0;
    this._clearSpacers();
    if (!this._enabled || !a || !b || a.frame !== b.frame || !this._sideBySide(a.table, b.table)) {
      this._setAligned(false);
      return;
    }
    const heightsA = measure(a);
    const heightsB = measure(b);
    const pairs = alignBlocks(
      a.blocks.map(block => block.line),
      b.blocks.map(block => block.line)
    );
    // Heights are from each table's top: the bodies start level (layout.ts levels the headers of a row).
    const spacers = spacerHeights(pairs, heightsA, heightsB);
    this._applySpacers(a, spacers.a);
    this._applySpacers(b, spacers.b);
    // The shorter listing gets a blank tail, so that both scroll as far.
    const totalA = sum(heightsA) + sum(spacers.a);
    const totalB = sum(heightsB) + sum(spacers.b);
    if (totalA !== totalB) {
      const shorter = totalA < totalB ? a.table : b.table;
      shorter.appendChild(this._spacer(shorter, Math.abs(totalA - totalB)));
    }
    this._setAligned(true);
    if (original && modified) {
      original.scrollTop = scrolled;
      this._follow(original, modified);
    }
  }

  /**
   * Stop observing the panes.
   */
  dispose(): void {
    this._resize?.disconnect();
    this._listings.clear();
  }

  /** Both tables in the page, and next to each other (not stacked in a narrow output, none hidden). */
  private _sideBySide(a: HTMLElement, b: HTMLElement): boolean {
    if (!a.isConnected || !b.isConnected) {
      return false;
    }
    const ra = a.getBoundingClientRect();
    const rb = b.getBoundingClientRect();
    if (ra.width === 0 || rb.width === 0) {
      return false; // hidden (a maximised pane), or no layout at all
    }
    return ra.right <= rb.left + 1 || rb.right <= ra.left + 1;
  }

  private _applySpacers(listing: IDrawnListing, heights: number[]): void {
    listing.blocks.forEach((block, k) => {
      if (heights[k] > 0.5) {
        block.first.before(this._spacer(block.first, heights[k]));
      }
    });
  }

  /** The spacer kept for `key` (a block's first row, or a table for its tail), `height` pixels high. */
  private _spacer(key: HTMLElement, height: number): HTMLElement {
    let spacer = this._spacers.get(key);
    if (!spacer) {
      spacer = document.createElement('div');
      spacer.className = SPACER_CLASS;
      spacer.setAttribute('aria-hidden', 'true');
      for (let i = 0; i < SPACER_CELLS; i++) {
        spacer.appendChild(document.createElement('span'));
      }
      this._spacers.set(key, spacer);
    }
    spacer.style.height = `${height}px`;
    return spacer;
  }

  private _clearSpacers(): void {
    for (const spacer of this._spacers.values()) {
      spacer.remove();
    }
    this._spacers.clear();
  }

  private _setAligned(on: boolean): void {
    this._aligned = on;
    for (const body of this._bodies.values()) {
      body.dataset.align = on ? 'on' : 'off';
    }
  }

  /** Scroll the other pane with this one while aligned (the scroll event that follows is not echoed back). */
  private _onScroll(kind: BytecodeKind): void {
    const body = this._bodies.get(kind);
    const other = this._bodies.get(kind === 'original' ? 'modified' : 'original');
    if (!body || !other) {
      return;
    }
    if (this._echo?.body === body && this._echo.top === body.scrollTop) {
      this._echo = null;
      return;
    }
    if (this._aligned) {
      this._follow(body, other);
    }
  }

  /** Scroll `other` to where `body` is. */
  private _follow(body: HTMLElement, other: HTMLElement): void {
    if (other.scrollTop === body.scrollTop) {
      return;
    }
    other.scrollTop = body.scrollTop;
    this._echo = { body: other, top: other.scrollTop };
  }
}

/** The sum of some numbers. */
function sum(values: readonly number[]): number {
  return values.reduce((total, v) => total + v, 0);
}

/** The height of each block of a listing, in pixels, from the tops of their first rows. */
function measure(listing: IDrawnListing): number[] {
  const tops = listing.blocks.map(block => block.first.getBoundingClientRect().top);
  const bottom = listing.table.getBoundingClientRect().bottom;
  return tops.map((top, k) => Math.max(0, (k + 1 < tops.length ? tops[k + 1] : bottom) - top));
}
