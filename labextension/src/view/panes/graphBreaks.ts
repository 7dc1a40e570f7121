/**
 * Graph-breaks pane: the action list (breakList.ts). One card per distinct graph break of the cell, most
 * costly first: its gb_type, where it is (`In [3], line 8`), how many compiles met it and, with `--profile`,
 * how many times it ran and its eager cost; then its reason and remedy (explanation, hints, documentation).
 * A click on its head or location button, or on a gutter mark in the cell's editor (cellGutter.ts), opens it:
 * the frame that met it is selected, its source line highlighted, and the card scrolled to and selected.
 */
import type { IViewContext } from '../context';
import { button, externalLink, h } from '../../dom';
import { buildBreakList, costText, readProfile, rowSummary, type IBreakRow } from '../../model/breakList';
import { PANE_TITLES, type Frame } from '../../schema';
import { emptyState, Pane } from './pane';

/**
 * The graph-breaks pane.
 */
export class GraphBreaksPane extends Pane {
  /** The action list, most costly first. */
  readonly rows: readonly IBreakRow[];
  private readonly _cards = new Map<IBreakRow, HTMLElement>();
  private _selected: IBreakRow | null = null;

  constructor(ctx: IViewContext) {
    super(ctx, 'graph-breaks');
    this.rows = buildBreakList(ctx.report, ctx.index);
    const total = this.rows.reduce((n, row) => n + row.occurrences.length, 0);
    const order = readProfile(ctx.report) ? ', most eager time first' : '';
    this.title.textContent = `${PANE_TITLES['graph-breaks']} (${this.rows.length} unique, ${total} total${order})`;
    if (this.rows.length === 0) {
      this.body.appendChild(emptyState('No graph breaks: every compiled frame became whole graphs.'));
      return;
    }
    const list = h('ol', { class: 'jp-DynamoExplorer-breakList' });
    for (const row of this.rows) {
      const card = this._card(row);
      this._cards.set(row, card);
      list.appendChild(card);
    }
    this.body.appendChild(list);
  }

  /** The row opened last (null: none). */
  get selected(): IBreakRow | null {
    return this._selected;
  }

  /** The card drawn for a row. */
  cardOf(row: IBreakRow): HTMLElement | undefined {
    return this._cards.get(row);
  }

  /**
   * Open a break: select a frame that met it (`frame` when given and among them, else the frame shown now
   * when it met it, else the first), highlight its line in that frame's source, then select the card and
   * scroll it into view. Resolves once the view is drawn.
   */
  async open(row: IBreakRow, frame?: Frame | null): Promise<void> {
    const shown = this.ctx.frame;
    const target =
      frame && row.frames.includes(frame) ? frame : shown && row.frames.includes(shown) ? shown : row.frames[0];
    const line = lineInFrame(row, target);
    if (line !== null) {
      await this.ctx.jumpToLine(target, line);
    } else {
      await this.ctx.selectFrame(target.compile_id);
    }
    this._select(row);
  }

  /** Mark the breaks of the frame shown now. */
  protected render(frame: Frame): void {
    this._markCurrent(frame);
  }

  /** No frame is shown: no break is current. */
  protected renderNoFrame(): void {
    this._markCurrent(null);
  }

  private _markCurrent(frame: Frame | null): void {
    for (const [row, card] of this._cards) {
      card.classList.toggle('jp-mod-current', !!frame && row.frames.includes(frame));
    }
  }

  /** Select a card (the one opened), scroll it into view and flash it. */
  private _select(row: IBreakRow): void {
    this._selected = row;
    for (const [other, el] of this._cards) {
      el.classList.toggle('jp-mod-selected', other === row);
      el.setAttribute('aria-current', String(other === row));
    }
    const card = this._cards.get(row);
    if (!card) {
      return;
    }
    if (typeof card.scrollIntoView === 'function') {
      card.scrollIntoView({ block: 'nearest' });
    }
    card.classList.remove('jp-mod-flash');
    void card.offsetWidth;
    card.classList.add('jp-mod-flash');
  }

  private _card(row: IBreakRow): HTMLElement {
    const { gb } = row;
    const rank = this.rows.indexOf(row) + 1;
    const card = h(
      'li',
      {
        class: `jp-DynamoExplorer-break${row.dataDependent ? ' jp-mod-dataDependent' : ''}`,
        data: { count: String(row.occurrences.length), rank: String(rank), compiles: String(row.frames.length) }
      },
      h(
        'div',
        {
          class: 'jp-DynamoExplorer-breakHead',
          title: 'Show this break: its frame, its source line, this card',
          onclick: event => {
            // the whole head opens the break; its button and links do their own work
            if (!(event.target as Element).closest('button, a')) {
              void this.open(row);
            }
          }
        },
        h('span', { class: 'jp-DynamoExplorer-breakRank', text: `${rank}.`, title: rowSummary(row) }),
        h('span', { class: 'jp-DynamoExplorer-breakType', text: gb.gb_id ? `${gb.gb_id} ${gb.gb_type}` : gb.gb_type }),
        row.where
          ? button(row.where, () => void this.open(row), {
              class: 'jp-DynamoExplorer-link',
              data: { jump: String(gb.line) }
            })
          : button('show', () => void this.open(row), { class: 'jp-DynamoExplorer-link', data: { jump: '' } }),
        row.dataDependent ? h('span', { class: 'jp-DynamoExplorer-flag', text: '⚠ data-dependent' }) : null
      ),
      h(
        'div',
        { class: 'jp-DynamoExplorer-breakCost' },
        ...costText(row).map(text => h('span', { class: 'jp-DynamoExplorer-badge', text })),
        h('span', {
          class: 'jp-DynamoExplorer-muted',
          text: ` in ${row.frames.map(f => `[${f.compile_id}]`).join(' ')}`
        })
      ),
      h('div', { class: 'jp-DynamoExplorer-breakReason', text: gb.reason })
    );
    if (gb.explanation) {
      card.appendChild(h('div', { class: 'jp-DynamoExplorer-breakExplanation', text: gb.explanation }));
    }
    if (gb.hints.length > 0) {
      card.appendChild(h('ul', { class: 'jp-DynamoExplorer-hints' }, ...gb.hints.map(hint => h('li', { text: hint }))));
    }
    if (gb.doc_url) {
      card.appendChild(h('div', { class: 'jp-DynamoExplorer-docLink' }, externalLink(gb.doc_url, 'documentation')));
    }
    if (gb.user_stack.length > 1) {
      const stack = h('details', {}, h('summary', { text: 'user stack' }));
      for (const f of gb.user_stack) {
        stack.appendChild(
          h(
            'div',
            { class: 'jp-DynamoExplorer-stackFrame' },
            h('code', { text: `${this.ctx.index.place(f.filename, f.line ?? null)} in ${f.name}` }),
            f.code ? h('pre', { class: 'jp-DynamoExplorer-code', text: f.code }) : null
          )
        );
      }
      card.appendChild(stack);
    }
    const frame = row.frames[0];
    this.linkForReport(
      card,
      this.ctx.index.lineKey(gb.filename, gb.line, frame.code.in_cell && gb.filename === frame.code.filename)
    );
    return card;
  }
}

/**
 * The line of a frame's own source a break is at: the break's line when it is in the frame's file, else the
 * innermost line of that file on its user stack (the call that led to it); null when neither is known.
 */
export function lineInFrame(row: IBreakRow, frame: Frame): number | null {
  const gb = row.occurrences.find(o => o.frame === frame)?.gb ?? row.gb;
  if (gb.filename === frame.code.filename || (gb.filename === null && frame.code.in_cell)) {
    return gb.line;
  }
  const own = gb.user_stack.filter(s => s.filename === frame.code.filename && s.line !== null);
  return own.length > 0 ? own[own.length - 1].line : null;
}
