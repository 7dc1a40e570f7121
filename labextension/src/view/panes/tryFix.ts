/**
 * Try a fix pane (issue 13 item 4): the remedies on offer for the run's graph breaks and recompiles
 * (`report.fixes`), each with its title, kind, the torch API verbatim, the code the user would write, why it
 * helps, and the breaks and recompiles it targets (a click opens one in the graph-breaks or guards pane).
 *
 * How to try one: in a notebook (a host is set, reportHub.ts), a runnable fix has a Try it button; it first says
 * plainly that the cell runs again, then, once confirmed, the host inserts a cell below with the same body and
 * `--try NAME` on the same `%%dynamo` line and runs it (notebookFix.ts). Without a host (the standalone page, an
 * output view, a page without the plugin) the `%%dynamo` line to copy is shown instead. A hint (torch.cond) is
 * a rewrite only the user can make: its code, no button.
 *
 * With `report.try_fix` (a `--try` run): the before/after table on top (tryFixModel.ts `outcomeRows`), each
 * row marked better or worse, then the change made (a source edit as its diff), what was put back, and where
 * the 'before' numbers come from.
 */
import { breakKey } from '../../model/breakList';
import { recompileLine } from '../../model/cellMarks';
import { openMark, revealExportCall } from '../openMark';
import type { IViewContext } from '../context';
import { append, button, clear, h } from '../../dom';
import { watchActions, type IReportActions } from '../reportHub';
import { PANE_TITLES, type Fix, type Frame, type TryFix } from '../../schema';
import {
  magicLine,
  outcomeRows,
  outcomeSummary,
  readFixes,
  readTryFix,
  targetOf,
  type IFixTarget
} from '../../model/tryFixModel';
import { emptyState, isView, Pane } from './pane';

/** What each fix kind means, for the kind badge's tooltip (the schema's words). */
const KIND_TITLES: Record<Fix['kind'], string> = {
  config: 'a torch._dynamo config value, set for the run',
  option: 'a torch.compile argument',
  mark: 'torch._dynamo.mark_dynamic / maybe_mark_dynamic on an input before each call',
  register: 'allow_in_graph / nonstrict_trace on a function, for the run',
  source_edit: 'a line added to the cell for the run',
  hint: 'a rewrite only you can make',
  export: 'one export call of the run made otherwise, for the run'
};

/**
 * The Try a fix pane.
 */
export class TryFixPane extends Pane {
  /** The fixes on offer, in the report's order. */
  readonly fixes: readonly Fix[];
  /** The `--try` run's result, or null. */
  readonly tryFix: TryFix | null;
  private readonly _cards = new Map<string, { fix: Fix; card: HTMLElement; action: HTMLElement }>();
  private _actions: IReportActions | null = null;
  private readonly _stopWatch: () => void;

  constructor(ctx: IViewContext) {
    super(ctx, 'try-fix');
    this.fixes = readFixes(ctx.report);
    this.tryFix = readTryFix(ctx.report);
    const applied = this.tryFix ? `: ${this.tryFix.fix.name} applied` : '';
    const count = `${this.fixes.length} fix${this.fixes.length === 1 ? '' : 'es'}`;
    this.title.textContent = `${PANE_TITLES['try-fix']} (${count} on offer${applied})`;
    if (this.tryFix) {
      this.body.appendChild(this._result(this.tryFix));
    }
    if (this.fixes.length > 0) {
      const list = h('ol', { class: 'jp-DynamoExplorer-fixList' });
      for (const fix of this.fixes) {
        list.appendChild(this._card(fix));
      }
      this.body.appendChild(list);
    } else {
      this.body.appendChild(
        emptyState(
          this.tryFix
            ? 'No fix on offer for what is left: this run has no graph break or recompile with a known remedy.'
            : 'No fix on offer: no graph break or recompile of this run has a known remedy.'
        )
      );
    }
    this._stopWatch = watchActions(ctx, actions => this._setActions(actions));
  }

  /** What the notebook host offers now (null: no host, so the `%%dynamo` line to copy is shown). */
  get actions(): IReportActions | null {
    return this._actions;
  }

  /** The card of a fix, by name. */
  cardOf(name: string): HTMLElement | undefined {
    return this._cards.get(name)?.card;
  }

  /**
   * Open a target: a graph break in the graph-breaks pane, a recompile in the guards pane (its frame selected,
   * the failed guard's line shown), a failed frame by selecting it. Resolves false when the view does not hold it.
   */
  async openTarget(target: IFixTarget): Promise<boolean> {
    const { ctx } = this;
    if (isView(ctx) && target.exportCall) {
      return revealExportCall(ctx, target.exportCall.index);
    }
    if (!isView(ctx) || !target.frame) {
      return false;
    }
    if (target.graphBreak) {
      return openMark(ctx, { kind: 'break', key: breakKey(target.graphBreak) });
    }
    if (target.target.kind !== 'recompile') {
      await ctx.selectFrame(target.frame.compile_id); // a failure: the frame title says why it failed
      return true;
    }
    const line = recompileLine(ctx.report, ctx.index, target.frame);
    return openMark(ctx, {
      kind: 'recompile',
      compileId: target.frame.compile_id,
      line: line?.guard ? line.line : null
    });
  }

  /** Stop following the host, then release the links. */
  dispose(): void {
    this._stopWatch();
    super.dispose();
  }

  /** Mark the fixes that target the frame shown now. */
  protected render(frame: Frame): void {
    this._markCurrent(frame);
  }

  /** No frame shown: no fix is current. */
  protected renderNoFrame(): void {
    this._markCurrent(null);
  }

  private _markCurrent(frame: Frame | null): void {
    for (const { fix, card } of this._cards.values()) {
      card.classList.toggle('jp-mod-current', !!frame && fix.targets.some(t => t.compile_id === frame.compile_id));
    }
  }

  /** The host's offer changed: redraw every card's action. */
  private _setActions(actions: IReportActions | null): void {
    this._actions = actions;
    for (const { fix, action } of this._cards.values()) {
      this._drawAction(fix, action);
    }
  }

  /** One fix: its head, API, code, why, targets and action. */
  private _card(fix: Fix): HTMLElement {
    const { index, report } = this.ctx;
    const applied = report.options.try_fix === fix.name;
    const action = h('div', { class: 'jp-DynamoExplorer-fixAction' });
    const targets = fix.targets.map(t => targetOf(index, t));
    const card = h(
      'li',
      {
        class: `jp-DynamoExplorer-fix${fix.runnable ? '' : ' jp-mod-hint'}${applied ? ' jp-mod-applied' : ''}`,
        data: { fix: fix.name, kind: fix.kind }
      },
      h(
        'div',
        { class: 'jp-DynamoExplorer-fixHead' },
        h('span', { class: 'jp-DynamoExplorer-fixTitle', text: fix.title }),
        h('span', { class: 'jp-DynamoExplorer-badge', text: fix.kind, title: KIND_TITLES[fix.kind] ?? fix.kind }),
        h('code', { class: 'jp-DynamoExplorer-fixName', text: fix.name, title: 'the name --try takes' }),
        applied ? h('span', { class: 'jp-DynamoExplorer-badge jp-mod-applied', text: 'applied in this run' }) : null
      ),
      h(
        'div',
        { class: 'jp-DynamoExplorer-fixApi' },
        h('span', { class: 'jp-DynamoExplorer-muted', text: 'API ' }),
        h('code', { text: fix.api })
      ),
      h('div', { class: 'jp-DynamoExplorer-fixWhy', text: fix.why }),
      h('pre', { class: 'jp-DynamoExplorer-code jp-DynamoExplorer-fixCode', text: fix.code }),
      targets.length > 0
        ? h(
            'div',
            { class: 'jp-DynamoExplorer-fixTargets' },
            h('span', { class: 'jp-DynamoExplorer-muted', text: 'for ' }),
            ...targets.map(t => this._targetButton(t))
          )
        : null,
      action
    );
    this._cards.set(fix.name, { fix, card, action });
    this._drawAction(fix, action);
    return card;
  }

  /** A link to one target; hovering it lights the break's line in the other panes. */
  private _targetButton(target: IFixTarget): HTMLElement {
    const el = button(target.label, () => void this.openTarget(target), {
      class: 'jp-DynamoExplorer-link',
      data: {
        targetKind: target.target.kind,
        compileId: target.target.compile_id ?? '',
        index: String(target.target.index)
      }
    });
    const gb = target.graphBreak;
    if (gb && target.frame) {
      const inCell = target.frame.code.in_cell && (gb.filename === target.frame.code.filename || gb.filename === null);
      this.linkForReport(el, this.ctx.index.lineKey(gb.filename ?? target.frame.code.filename, gb.line, inCell));
    }
    return el;
  }

  /**
   * A fix's action: nothing to run for a hint; the Try it button where a host runs the cell; the line to copy
   * elsewhere.
   */
  private _drawAction(fix: Fix, action: HTMLElement): void {
    clear(action);
    if (!fix.runnable) {
      action.appendChild(
        h('div', {
          class: 'jp-DynamoExplorer-fixHint',
          text: 'A rewrite only you can make: change your code as above; there is nothing to run for it.'
        })
      );
      return;
    }
    const actions = this._actions;
    if (actions) {
      action.appendChild(
        button('Try it', () => this._confirm(fix, action, actions), {
          class: 'jp-DynamoExplorer-tryButton',
          title: 'Runs the cell again with this fix, in a new cell below (asks first)',
          data: { action: 'try' }
        })
      );
      return;
    }
    const line = magicLine(this.ctx.report.options, fix.name);
    append(
      action,
      h('span', { class: 'jp-DynamoExplorer-muted', text: 'To try it, run the cell again with this line: ' }),
      h('code', { class: 'jp-DynamoExplorer-tryLine', text: line, data: { action: 'copy-line' } }),
      copyButton(line)
    );
  }

  /** Say plainly that the cell runs again, with the exact line, and ask before running it (Escape cancels). */
  private _confirm(fix: Fix, action: HTMLElement, actions: IReportActions): void {
    let line: string;
    try {
      line = actions.tryLine(fix.name);
    } catch (error) {
      this._status(fix, action, 'error', `Cannot try it: ${String((error as Error)?.message ?? error)}`);
      return;
    }
    clear(action);
    const run = button(
      'Run it',
      () => {
        clear(action);
        const inCell = actions.place === 'new-cell';
        this._status(fix, action, 'running', inCell ? 'Inserting a cell below and running it…' : 'Running it…');
        actions.tryFix(fix.name).then(
          () =>
            this._status(
              fix,
              action,
              'running',
              inCell
                ? `Running below, in a new cell: ${line}. Its report shows this run before and after the fix.`
                : `Ran: ${line}. Its report is below this explorer: this run before and after the fix.`
            ),
          (error: unknown) =>
            this._status(fix, action, 'error', `Could not run it: ${String((error as Error)?.message ?? error)}`)
        );
      },
      { class: 'jp-DynamoExplorer-tryButton', data: { action: 'confirm' } }
    );
    const cancel = (): void => {
      this._drawAction(fix, action);
      action.querySelector<HTMLElement>('button[data-action="try"]')?.focus();
    };
    const box = h(
      'div',
      {
        class: 'jp-DynamoExplorer-tryConfirm',
        attrs: { role: 'group', 'aria-label': `Try ${fix.name}: confirm` }
      },
      h('div', {
        text:
          actions.place === 'new-cell'
            ? 'This runs the cell again: a new cell is inserted below with the same code and this line, and ' +
              'executed in the kernel, so the cell’s side effects happen again. The fix applies to that run only.'
            : 'This runs the cell again in the kernel with this line, so the cell’s side effects happen again; ' +
              'its report shows below this explorer. The fix applies to that run only.'
      }),
      h('code', { class: 'jp-DynamoExplorer-tryLine', text: line }),
      h('div', { class: 'jp-DynamoExplorer-tryButtons' }, run, button('Cancel', cancel, { data: { action: 'cancel' } }))
    );
    box.addEventListener('keydown', event => {
      if (event.key === 'Escape') {
        event.stopPropagation(); // JupyterLab would leave edit mode or close something
        cancel();
      }
    });
    action.appendChild(box);
    run.focus();
  }

  /** A line under a fix saying what happened to its run (`data-state`: running or error), and a way back. */
  private _status(fix: Fix, action: HTMLElement, state: 'running' | 'error', text: string): void {
    clear(action);
    action.append(
      h('div', { class: `jp-DynamoExplorer-tryStatus jp-mod-${state}`, text, data: { state } }),
      button('OK', () => this._drawAction(fix, action), { data: { action: 'dismiss' }, title: 'Back to Try it' })
    );
  }

  /** The before/after table of a `--try` run, the change, what was restored, where 'before' comes from. */
  private _result(tryFix: TryFix): HTMLElement {
    const rows = outcomeRows(tryFix);
    const table = h(
      'table',
      { class: 'jp-DynamoExplorer-table jp-DynamoExplorer-tryTable' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { text: '' }),
          h('th', { text: 'before' }),
          h('th', { text: `after (${tryFix.fix.name})` }),
          h('th', { text: '' })
        )
      ),
      h(
        'tbody',
        {},
        ...rows.map(row =>
          h(
            'tr',
            { class: `jp-mod-${row.change}`, data: { key: row.key, change: row.change } },
            h('th', { text: row.label }),
            h('td', { text: row.before }),
            h('td', { text: row.after }),
            h('td', { class: 'jp-DynamoExplorer-tryChange', text: CHANGE_TEXT[row.change] })
          )
        )
      )
    );
    const box = h(
      'div',
      { class: 'jp-DynamoExplorer-tryResult', data: { section: 'try-result', applied: tryFix.fix.name } },
      h(
        'div',
        { class: 'jp-DynamoExplorer-tryHead' },
        h('strong', { text: `This run applied ${tryFix.fix.name}` }),
        h('span', { text: ` (${tryFix.fix.title})` })
      ),
      h('div', { class: 'jp-DynamoExplorer-trySummary', text: outcomeSummary(tryFix) }),
      table,
      h('div', { class: 'jp-DynamoExplorer-muted', text: `before: ${tryFix.before_from}` })
    );
    box.appendChild(changeBlock(tryFix.change));
    if (tryFix.restored) {
      box.appendChild(
        h('div', { class: 'jp-DynamoExplorer-tryRestored', text: `restored after the run: ${tryFix.restored}` })
      );
    }
    return box;
  }
}

/** The last column of the before/after table. */
const CHANGE_TEXT: Record<'better' | 'worse' | 'same', string> = { better: '▼ better', worse: '▲ worse', same: '' };

/** Is a change text a unified diff (a source edit)? */
export function isDiff(text: string): boolean {
  return /^(---|\+\+\+|@@) /m.test(text);
}

/** The change made for the run: a diff with its added and removed lines coloured, or one line of words. */
function changeBlock(change: string): HTMLElement {
  if (!isDiff(change)) {
    return h('div', { class: 'jp-DynamoExplorer-tryChangeText', text: `changed for this run only: ${change}` });
  }
  const pre = h('pre', { class: 'jp-DynamoExplorer-code jp-DynamoExplorer-tryDiff' });
  for (const line of change.replace(/\n$/, '').split('\n')) {
    const kind =
      line.startsWith('+++') || line.startsWith('---')
        ? 'file'
        : line.startsWith('+')
          ? 'add'
          : line.startsWith('-')
            ? 'del'
            : line.startsWith('@@')
              ? 'hunk'
              : 'same';
    pre.appendChild(h('span', { class: `jp-DynamoExplorer-diff-${kind}`, text: `${line}\n` }));
  }
  return h(
    'div',
    { class: 'jp-DynamoExplorer-tryChangeText' },
    h('div', { text: 'changed for this run only (the cell as it ran):' }),
    pre
  );
}

/** A Copy button for a line, where the page offers a clipboard (none in an insecure context). */
function copyButton(text: string): HTMLElement | null {
  const clipboard = typeof navigator !== 'undefined' ? navigator.clipboard : undefined;
  if (!clipboard || typeof clipboard.writeText !== 'function') {
    return null;
  }
  const el = button(
    'Copy',
    () => {
      clipboard.writeText(text).then(
        () => {
          el.textContent = 'Copied';
        },
        () => {
          el.textContent = 'Select and copy';
        }
      );
    },
    { data: { action: 'copy' }, title: 'Copy the line' }
  );
  return el;
}
