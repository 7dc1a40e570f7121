/**
 * Guards pane: the frame's guards grouped by source (L['a'], G['torch']) with their type and code. On a
 * recompile the guard(s) that failed are highlighted and a diff against the previous compile is shown.
 * Dynamic-shape symbols, shape guards and the raw guard tree of the frame follow.
 */
import type { IViewContext } from '../context';
import { button, clear, h } from '../dom';
import { failedGuards, guardText } from '../model';
import { PANE_TITLES, type Frame, type Guard } from '../schema';
import { emptyState, Pane } from './pane';

/** Guard rows drawn at first (and per 'show more'): a model with thousands of parameters has tens of thousands. */
const GUARD_PAGE = 300;

/**
 * The guards pane.
 */
export class GuardsPane extends Pane {
  constructor(ctx: IViewContext) {
    super(ctx, 'guards');
  }

  /** No frame: the plain title and the placeholder. */
  protected renderNoFrame(): void {
    this.title.textContent = PANE_TITLES.guards;
    super.renderNoFrame();
  }

  /**
   * Show a frame's guards.
   */
  protected render(frame: Frame): void {
    const { index } = this.ctx;
    clear(this.body);
    this.title.textContent = `${PANE_TITLES.guards} (${frame.guards.length})`;
    const previous =
      frame.recompile_reasons.length > 0 || index.recompileCount > 0 ? index.previousCompile(frame) : null;
    const failed = failedGuards(frame, previous);
    const failedKeys = new Set([...failed].map(g => `${g.type}|${g.source}`));
    if (frame.recompile_reasons.length > 0) {
      const box = h('div', { class: 'jp-DynamoExplorer-recompile', data: { section: 'recompile-reasons' } });
      for (const reason of frame.recompile_reasons) {
        box.appendChild(
          h(
            'div',
            { class: 'jp-DynamoExplorer-recompileReason' },
            h('strong', {
              text: `Recompiled${reason.failed_compile_id ? `: a guard of [${reason.failed_compile_id}] failed` : ''}: `
            }),
            h('span', { class: 'jp-DynamoExplorer-message', text: reason.reason })
          )
        );
      }
      this.body.appendChild(box);
    }
    if (previous && previous !== frame) {
      const diff = this._diff(frame, previous, failed);
      const details = h(
        'details',
        { class: 'jp-DynamoExplorer-guardDiff', data: { section: 'guard-diff' } },
        h('summary', { text: `Diff vs guards of [${previous.compile_id}]` }),
        diff
      );
      details.open = frame.recompile_reasons.length > 0;
      this.body.appendChild(details);
    }
    if (frame.guards.length === 0) {
      this.body.appendChild(emptyState('<no guards>'));
    }
    const groups = new Map<string, Guard[]>();
    for (const guard of frame.guards) {
      const list = groups.get(guard.source);
      if (list) {
        list.push(guard);
      } else {
        groups.set(guard.source, [guard]);
      }
    }
    this._renderGroups(frame, [...groups], 0, failedKeys, previous);
    this._shapes(frame);
    if (frame.guard_tree) {
      const tree = this.ctx.index.labelPaths(frame.guard_tree);
      const details = h(
        'details',
        { class: 'jp-DynamoExplorer-guardTree' },
        h('summary', { text: `Guard tree (as TORCH_LOGS=guards prints it, ${tree.split('\n').length} lines)` })
      );
      details.addEventListener('toggle', () => {
        if (details.open && details.childElementCount === 1) {
          details.appendChild(h('pre', { class: 'jp-DynamoExplorer-code', text: tree }));
        }
      });
      this.body.appendChild(details);
    }
  }

  /** Draw guard groups from `start` until about GUARD_PAGE rows, then a 'show more' button. */
  private _renderGroups(
    frame: Frame,
    groups: Array<[string, Guard[]]>,
    start: number,
    failedKeys: Set<string>,
    previous: Frame | null,
    anchor: HTMLElement | null = null
  ): void {
    const fragment = document.createDocumentFragment();
    let rows = 0;
    let i = start;
    for (; i < groups.length && rows < GUARD_PAGE; i++) {
      const [source, guards] = groups[i];
      rows += guards.length;
      const group = h(
        'div',
        { class: 'jp-DynamoExplorer-guardGroup', data: { source } },
        h(
          'div',
          { class: 'jp-DynamoExplorer-guardSource' },
          source ? h('code', { text: source }) : h('span', { text: 'global state' }),
          h('span', { class: 'jp-DynamoExplorer-muted', text: ` ${guards[0].origin} · ${guards.length}` })
        )
      );
      for (const guard of guards) {
        const row = this._guardRow(frame, guard);
        if (failedKeys.has(`${guard.type}|${guard.source}`)) {
          row.classList.add('jp-mod-failed');
          row.title = `the same guard failed in [${previous?.compile_id}] and caused this recompile`;
        }
        group.appendChild(row);
      }
      fragment.appendChild(group);
    }
    if (i < groups.length) {
      const left = groups.slice(i).reduce((n, [, g]) => n + g.length, 0);
      const more = button(
        `show more (${left} guards left)`,
        () => {
          this._renderGroups(frame, groups, i, failedKeys, previous, more);
        },
        { class: 'jp-DynamoExplorer-more' }
      );
      fragment.appendChild(more);
    }
    if (anchor) {
      anchor.replaceWith(fragment);
    } else {
      this.body.appendChild(fragment);
    }
  }

  private _guardRow(frame: Frame, guard: Guard): HTMLElement {
    const row = h(
      'div',
      { class: 'jp-DynamoExplorer-guard', data: { type: guard.type } },
      h('span', { class: 'jp-DynamoExplorer-guardType', text: guard.type }),
      h('span', { class: 'jp-DynamoExplorer-guardCode' }, ...guard.code.map(code => h('code', { text: code }))),
      guard.line !== null
        ? button(`line ${guard.line}`, () => void this.ctx.jumpToLine(frame, guard.line!), {
            class: 'jp-DynamoExplorer-link'
          })
        : null
    );
    this.link(row, this.ctx.index.frameLineKey(frame, guard.line));
    return row;
  }

  private _diff(frame: Frame, previous: Frame, failed: Set<Guard>): HTMLElement {
    const now = new Set(frame.guards.map(guardText));
    const before = new Set(previous.guards.map(guardText));
    const out = h('div', { class: 'jp-DynamoExplorer-diff' });
    let same = 0;
    for (const guard of previous.guards) {
      const text = guardText(guard);
      if (!now.has(text)) {
        out.appendChild(
          h(
            'div',
            {
              class: `jp-DynamoExplorer-diffRow jp-mod-removed${failed.has(guard) ? ' jp-mod-failed' : ''}`,
              data: { diff: 'removed' },
              title: failed.has(guard) ? 'this guard failed' : ''
            },
            `- ${text}`
          )
        );
      } else {
        same += 1;
      }
    }
    for (const guard of frame.guards) {
      const text = guardText(guard);
      if (!before.has(text)) {
        out.appendChild(
          h('div', { class: 'jp-DynamoExplorer-diffRow jp-mod-added', data: { diff: 'added' } }, `+ ${text}`)
        );
      }
    }
    out.appendChild(h('div', { class: 'jp-DynamoExplorer-muted', text: `${same} guards unchanged` }));
    return out;
  }

  private _shapes(frame: Frame): void {
    const { report } = this.ctx;
    const symbols = report.symbols.filter(s => s.compile_id === frame.compile_id);
    const shapeGuards = report.shape_guards.filter(s => s.compile_id === frame.compile_id);
    if (symbols.length === 0 && shapeGuards.length === 0) {
      return;
    }
    const section = h(
      'div',
      { class: 'jp-DynamoExplorer-shapes', data: { section: 'dynamic-shapes' } },
      h('div', { class: 'jp-DynamoExplorer-guardSource', text: 'Dynamic shapes' })
    );
    for (const s of symbols) {
      section.appendChild(
        h(
          'div',
          { class: 'jp-DynamoExplorer-guard' },
          h('code', { class: 'jp-DynamoExplorer-guardType', text: s.symbol }),
          h('span', { text: `${s.source} = ${s.value}, range ${s.range}` })
        )
      );
    }
    for (const g of shapeGuards) {
      section.appendChild(
        h(
          'div',
          { class: 'jp-DynamoExplorer-guard' },
          h('span', { class: 'jp-DynamoExplorer-guardType', text: 'SHAPE' }),
          h('code', { text: g.expr })
        )
      );
    }
    this.body.appendChild(section);
  }
}
