/**
 * Dispatch pane (issue 13 item 3): how a call of the shown frame's code is dispatched, the `transformed_<fn>`
 * that depyf prints, drawn. A vertical flow: "call f(x)", then each cache entry in the order Dynamo tries them
 * (most recently used first: a new entry, or one that matched a call, moves to the front) with the guards that tell it from its neighbours and, with --profile, the calls it served; an
 * arrow 'guards pass' to the entry's compiled code, an arrow 'fail' down to the next entry; then the fallback
 * (recompile, run eagerly past recompile_limit, or an error under fullgraph). Each entry links to its frame. The
 * toolbar switches to the Python text of the same dispatch (`report.dispatch[].text`, written by the engine's
 * dispatch_view collector: [Note: dispatch view]).
 */
import type { IViewContext } from '../context';
import { clear, h, plural } from '../../dom';
import { PANE_TITLES, type DispatchCode, type DispatchEntry, type DispatchGuard, type Frame } from '../../schema';
import { Pane, toggle } from './pane';

/** What the pane shows: the drawn flow or the depyf-style Python text. */
export type DispatchMode = 'flow' | 'text';

/** What the pane says for a report written before the dispatch view existed (schema minor < 7). */
export const NO_DISPATCH_FIELD = 'This report has no dispatch view (it was made before schema minor 7).';

/** What the pane says for a frame whose compile left no cache entry (a failed or skipped compile). */
export const NO_ENTRY = 'Dynamo made no cache entry for this frame, so there is no dispatch to show.';

/** The arrow under the call: in which order the entries are tried. */
export const ORDER_NOTE = 'tried in this order: a new entry goes first, and so does an entry that matched a call';

/** Distinguishing guards listed per entry box before a "+N more" line (the report keeps up to 40). */
export const GUARDS_SHOWN = 4;

/**
 * The dispatch of the code whose cache holds `compileId` (null: none in the report).
 */
export function dispatchFor(dispatch: readonly DispatchCode[] | undefined, compileId: string): DispatchCode | null {
  return (dispatch ?? []).find(d => d.entries.some(e => e.compile_id === compileId)) ?? null;
}

/**
 * The arguments of a call of the code, read from the text's `def transformed_<fn>(...)` line ('x, n').
 */
export function callArguments(d: DispatchCode): string {
  const m = /^def [^(]*\((.*)\):/.exec(d.text);
  return m ? m[1] : '...';
}

/**
 * One line on an entry: its guard count, what was folded and the calls it served.
 */
export function entryLine(entry: DispatchEntry, shared: number): string {
  const parts = [plural(entry.guard_count, 'guard')];
  if (shared > 0) {
    parts.push(`${shared} shared with every entry folded`);
  }
  if (entry.hits !== null) {
    parts.push(`×${entry.hits} ${entry.hits === 1 ? 'hit' : 'hits'}`);
  }
  if (!entry.live) {
    parts.push('no longer in the cache');
  }
  if (!entry.in_run) {
    parts.push("your own torch.compile's entry");
  }
  return parts.join(' · ');
}

/**
 * The title of the fallback box: what a call that matches no entry does.
 */
export function fallbackTitle(d: DispatchCode): string {
  switch (d.fallback.action) {
    case 'eager':
      return `eager fallback: ${d.code.name}(${callArguments(d)}) runs as plain Python`;
    case 'error':
      return 'error: FailOnRecompileLimitHit (fullgraph=True)';
    default:
      return `recompile: a new entry for ${d.code.name}, tried first from then on`;
  }
}

/**
 * The Dispatch pane.
 */
export class DispatchViewPane extends Pane {
  private _mode: DispatchMode = 'flow';
  private readonly _modes: { element: HTMLElement; set: (value: DispatchMode) => void };

  constructor(ctx: IViewContext) {
    super(ctx, 'dispatch');
    this._modes = toggle<DispatchMode>(
      [
        ['flow', 'Flow'],
        ['text', 'Python']
      ],
      this._mode,
      mode => {
        this._mode = mode;
        void this.redraw();
      }
    );
    this.toolbar.appendChild(this._modes.element);
  }

  /** What the pane shows now. */
  get mode(): DispatchMode {
    return this._mode;
  }

  /** Show the flow or the text (as the toolbar's toggle does). */
  async setMode(mode: DispatchMode): Promise<void> {
    this._mode = mode;
    this._modes.set(mode);
    await this.redraw();
  }

  /** Draw the dispatch of the frame's code. */
  protected render(frame: Frame): void {
    const d = dispatchFor(this.ctx.report.dispatch, frame.compile_id);
    this.title.textContent = d ? `${PANE_TITLES.dispatch} of ${d.code.name}` : PANE_TITLES.dispatch;
    if (this.ctx.report.dispatch === undefined) {
      this.showEmpty(NO_DISPATCH_FIELD);
      return;
    }
    if (!d) {
      this.showEmpty(NO_ENTRY);
      return;
    }
    clear(this.body);
    this.body.appendChild(this._mode === 'text' ? this._text(d) : this._flow(d, frame));
  }

  /** No frame: no dispatch. */
  protected renderNoFrame(): void {
    this.title.textContent = PANE_TITLES.dispatch;
    super.renderNoFrame();
  }

  private _text(d: DispatchCode): HTMLElement {
    return h('pre', { class: 'jp-DynamoExplorer-dispatchText', text: d.text });
  }

  private _flow(d: DispatchCode, frame: Frame): HTMLElement {
    const args = callArguments(d);
    const flow = h(
      'div',
      { class: 'jp-DynamoExplorer-dispatchFlow' },
      h('div', {
        class: 'jp-DynamoExplorer-dispatchBox jp-DynamoExplorer-dispatchCall',
        text: `call ${d.code.name}(${args})`
      })
    );
    const tried = d.entries.filter(e => e.live);
    if (tried.length > 0) {
      flow.appendChild(arrow(ORDER_NOTE));
    }
    tried.forEach((entry, i) => {
      flow.appendChild(this._entry(d, entry, frame, args));
      flow.appendChild(arrow(i + 1 < tried.length ? 'fail: try the next entry' : 'fail: no entry matched'));
    });
    flow.appendChild(
      h(
        'div',
        {
          class: `jp-DynamoExplorer-dispatchBox jp-DynamoExplorer-dispatchFallback jp-mod-${d.fallback.action}`,
          data: { action: d.fallback.action }
        },
        h('div', { class: 'jp-DynamoExplorer-dispatchHead', text: fallbackTitle(d) }),
        h('div', { class: 'jp-DynamoExplorer-dispatchMeta', text: d.fallback.reason })
      )
    );
    const gone = d.entries.filter(e => !e.live);
    if (gone.length > 0) {
      const list = h('div', { class: 'jp-DynamoExplorer-dispatchGone', text: 'Not tried any more: ' });
      for (const entry of gone) {
        list.appendChild(this._entryLink(entry, entry.in_run));
        list.appendChild(document.createTextNode(' '));
      }
      flow.appendChild(list);
    }
    return flow;
  }

  private _entry(d: DispatchCode, entry: DispatchEntry, frame: Frame, args: string): HTMLElement {
    const id = entry.compile_id.replace(/\W/g, '_');
    const box = h(
      'div',
      {
        class: 'jp-DynamoExplorer-dispatchBox jp-DynamoExplorer-dispatchEntry',
        data: { compileId: entry.compile_id }
      },
      h(
        'div',
        { class: 'jp-DynamoExplorer-dispatchHead' },
        this._entryLink(entry, entry.in_run),
        h('code', { text: ` __guard_${id}(${args})` })
      ),
      h('div', { class: 'jp-DynamoExplorer-dispatchMeta', text: entryLine(entry, d.shared_guards) })
    );
    if (entry.compile_id === frame.compile_id) {
      box.classList.add('jp-mod-selected');
    }
    const guards = h('ul', { class: 'jp-DynamoExplorer-dispatchGuards' });
    for (const guard of entry.distinguishing.slice(0, GUARDS_SHOWN)) {
      guards.appendChild(this._guard(d, guard));
    }
    if (entry.distinguishing.length > GUARDS_SHOWN) {
      guards.appendChild(
        h('li', {
          class: 'jp-DynamoExplorer-dispatchMeta',
          text: `+${entry.distinguishing.length - GUARDS_SHOWN} more`
        })
      );
    }
    if (entry.distinguishing.length === 0) {
      const only = d.entries.length === 1;
      guards.appendChild(
        h('li', {
          class: 'jp-DynamoExplorer-dispatchMeta',
          text: only
            ? 'the only entry: a call that passes its guards runs it (the Guards pane lists them)'
            : 'guards as its neighbours'
        })
      );
    }
    box.appendChild(guards);
    return h(
      'div',
      { class: 'jp-DynamoExplorer-dispatchRow' },
      box,
      h('span', { class: 'jp-DynamoExplorer-dispatchPass', text: 'guards pass →' }),
      h('code', {
        class: 'jp-DynamoExplorer-dispatchBox jp-DynamoExplorer-dispatchRun',
        text: `__transformed_code_${id}(${args})`
      })
    );
  }

  /** A '[0/1]' button that selects the entry's frame (plain text for an entry no frame of the report shows). */
  private _entryLink(entry: DispatchEntry, hasFrame: boolean): HTMLElement {
    const label = `[${entry.compile_id}]`;
    if (!hasFrame) {
      return h('span', { class: 'jp-DynamoExplorer-dispatchId', text: label });
    }
    const btn = h('button', {
      class: 'jp-DynamoExplorer-dispatchId',
      text: label,
      title: `Show frame ${entry.compile_id}`,
      data: { compileId: entry.compile_id },
      onclick: () => void this.ctx.selectFrame(entry.compile_id)
    });
    btn.type = 'button';
    return btn;
  }

  private _guard(d: DispatchCode, guard: DispatchGuard): HTMLElement {
    const row = h(
      'li',
      { class: 'jp-DynamoExplorer-dispatchGuard', title: guard.text, data: { kind: guard.kind } },
      h('span', { class: 'jp-DynamoExplorer-dispatchKind', text: guard.kind }),
      ' ',
      h('code', { text: guard.summary }),
      guard.difference === 'only_here'
        ? h('span', { class: 'jp-DynamoExplorer-dispatchMeta', text: ' (only here)' })
        : null
    );
    this.link(row, this.ctx.index.lineKey(d.code.filename, guard.line, d.code.in_cell));
    return row;
  }
}

/** A downward arrow with its label. */
function arrow(label: string): HTMLElement {
  return h('div', { class: 'jp-DynamoExplorer-dispatchArrow' }, h('span', { text: '↓' }), ' ', label);
}
