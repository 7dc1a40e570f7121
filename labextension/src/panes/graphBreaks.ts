/**
 * Graph-breaks pane: every graph break of the run, de-duplicated with a count, each with its reason,
 * explanation, hints and documentation link. Clicking its location jumps to the source line.
 */
import type { IViewContext } from '../context';
import { button, externalLink, h } from '../dom';
import type { IBreakGroup } from '../model';
import { PANE_TITLES, type Frame } from '../schema';
import { emptyState, Pane } from './pane';

/**
 * The graph-breaks pane.
 */
export class GraphBreaksPane extends Pane {
  private readonly _cards = new Map<IBreakGroup, HTMLElement>();

  constructor(ctx: IViewContext) {
    super(ctx, 'graph-breaks');
    const { index } = ctx;
    this.title.textContent = `${PANE_TITLES['graph-breaks']} (${index.breakGroups.length} unique, ${index.breakCount} total)`;
    if (index.breakGroups.length === 0) {
      this.body.appendChild(emptyState('No graph breaks: every compiled frame became whole graphs.'));
      return;
    }
    for (const group of index.breakGroups) {
      const card = this._card(group);
      this._cards.set(group, card);
      this.body.appendChild(card);
    }
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
    for (const [group, card] of this._cards) {
      card.classList.toggle('jp-mod-current', !!frame && group.frames.includes(frame));
    }
  }

  private _card(group: IBreakGroup): HTMLElement {
    const gb = group.first;
    const frame = group.frames[0];
    const where =
      gb.line !== null
        ? this.ctx.index.place(gb.filename, gb.line, frame.code.in_cell && gb.filename === frame.code.filename)
        : null;
    const card = h(
      'div',
      {
        class: `jp-DynamoExplorer-break${group.dataDependent ? ' jp-mod-dataDependent' : ''}`,
        data: { count: String(group.count) }
      },
      h(
        'div',
        { class: 'jp-DynamoExplorer-breakHead' },
        h('span', { class: 'jp-DynamoExplorer-breakType', text: gb.gb_id ? `${gb.gb_id} ${gb.gb_type}` : gb.gb_type }),
        h('span', {
          class: 'jp-DynamoExplorer-badge',
          text: `×${group.count}`,
          title: `${group.count} graph breaks with this reason and line`
        }),
        group.dataDependent ? h('span', { class: 'jp-DynamoExplorer-flag', text: '⚠ data-dependent' }) : null,
        where
          ? button(where, () => void this.ctx.jumpToLine(frame, gb.line!), {
              class: 'jp-DynamoExplorer-link',
              data: { jump: String(gb.line) }
            })
          : null,
        h('span', {
          class: 'jp-DynamoExplorer-muted',
          text: ` in ${group.frames.map(f => `[${f.compile_id}]`).join(' ')}`
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
    this.linkForReport(
      card,
      this.ctx.index.lineKey(gb.filename, gb.line, frame.code.in_cell && gb.filename === frame.code.filename)
    );
    return card;
  }
}
