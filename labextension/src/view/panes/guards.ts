/**
 * Guards pane: why this compiled code runs again, or not. On top, for a code object compiled more than once,
 * its recompile timeline ([0/0] → [0/1], the failed guard on each arrow) and the reasons of this recompile:
 * for each old cache entry, Dynamo's reason and every guard of it that failed, with what it expected and
 * what the call brought (minor 6), and the automatic-dynamic decision a shape recompile led to; then the
 * diff against the compile before (recompileReasons.ts draws the timeline and the reasons). Then the frame's
 * guards, grouped by source and ordered by `orderGuards` (guardsModel.ts): the failed ones, the shape guards,
 * the inputs, modules and parameters, globals; the global state last, as one collapsed summary row. The raw
 * guard tree closes the pane. The frame's dynamic-shape symbols are in the frame title (frameSymbols.ts).
 */
import type { IViewContext } from '../context';
import { button, clear, h } from '../../dom';
import {
  diffGuards,
  diffNote,
  failedGuardsOf,
  foldedMarkRows,
  globalStateFields,
  globalStateSummary,
  guardKey,
  orderGuards,
  splitMarkChecks,
  TIER_TITLES,
  type GuardTier,
  type IGuardGroup
} from '../../model/guardsModel';
import { guardText } from '../../model/model';
import { partCut } from '../../model/partsModel';
import { PANE_TITLES, type Frame, type Guard } from '../../schema';
import { emptyState, Pane, type IPaneParts } from './pane';
import { recompileReasons, recompileTimelineBox } from './recompileReasons';
import { partControl } from './partControl';

/** Guard rows drawn at first (and per 'show more'): a model with thousands of parameters has tens of thousands. */
const GUARD_PAGE = 300;

/** What a tensor's folded 'not marked' checks say, on hover. */
const MARK_TITLE = 'The tensor carries no mark of torch._dynamo.mark_dynamic, mark_unbacked, mark_static, ...';

/**
 * The guards pane.
 */
export class GuardsPane extends Pane {
  /** What the recompile reasons draw with. */
  private readonly _parts: IPaneParts;

  constructor(ctx: IViewContext) {
    super(ctx, 'guards');
    this._parts = { ctx, link: (el, key) => this.link(el, key) };
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
    const { index, report } = this.ctx;
    clear(this.body);
    this.title.textContent = `${PANE_TITLES.guards} (${frame.guard_count ?? frame.guards.length})`;
    const previous =
      frame.recompile_reasons.length > 0 || index.recompileCount > 0 ? index.previousCompile(frame) : null;
    const failed = failedGuardsOf(frame, previous);
    const failedKeys = new Set([...failed].map(guardKey));
    const timeline = recompileTimelineBox(this._parts, frame);
    if (timeline) {
      this.body.appendChild(timeline);
    }
    const reasons = recompileReasons(this._parts, frame, previous);
    if (reasons) {
      this.body.appendChild(reasons);
    }
    if (previous && previous !== frame) {
      this.body.appendChild(this._diff(frame, previous, failed));
    }
    const guardsCut = partCut(report, frame, 'guards');
    if (frame.guards.length === 0 && !guardsCut) {
      this.body.appendChild(emptyState('<no guards>'));
    }
    const shapeGuards = report.shape_guards.filter(s => s.compile_id === frame.compile_id);
    const shapeExprs = new Set(shapeGuards.map(s => s.expr));
    // Shape guards the frame's guards do not hold (an export without SHAPE_ENV) are shown as rows of their own.
    const held = new Set(frame.guards.flatMap(g => g.code));
    const extra: Guard[] = shapeGuards
      .filter(s => !held.has(s.expr))
      .map(s => ({ type: 'SHAPE', source: '', code: [s.expr], line: s.line, origin: 'SHAPE_ENV' }));
    const { groups, state } = orderGuards([...extra, ...frame.guards], failedKeys, shapeExprs);
    if (guardsCut) {
      this.body.appendChild(
        partControl(this.ctx, frame, guardsCut, { unit: 'guards', logs: 'guards' }, () => void this.update(frame))
      );
    }
    const list = h('div', { class: 'jp-DynamoExplorer-guardList', data: { section: 'guards' } });
    this.body.appendChild(list);
    this._renderGroups(frame, list, groups, 0, failedKeys, previous, null);
    if (state.length > 0) {
      list.appendChild(this._stateRow(frame, state));
    }
    const treeCut = partCut(report, frame, 'guard_tree');
    if (frame.guard_tree || treeCut) {
      // a trace's big tree may be all in its log (treeCut.log, kept 0): the line to load it, no text yet
      const tree = frame.guard_tree ? index.labelPaths(frame.guard_tree) : '';
      const size = tree ? `${tree.split('\n').length} lines` : 'in the log';
      const details = h(
        'details',
        { class: 'jp-DynamoExplorer-guardTree' },
        h('summary', { text: `Guard tree (as TORCH_LOGS=guards prints it, ${size})` })
      );
      if (treeCut) {
        const reopen = (): void =>
          void this.update(frame).then(() =>
            this.body.querySelector('.jp-DynamoExplorer-guardTree')?.setAttribute('open', '')
          );
        details.appendChild(
          partControl(this.ctx, frame, treeCut, { unit: 'characters of the tree', logs: 'guards' }, reopen)
        );
      }
      const shown = details.childElementCount;
      details.addEventListener('toggle', () => {
        if (details.open && details.childElementCount === shown && tree) {
          details.appendChild(h('pre', { class: 'jp-DynamoExplorer-code', text: tree }));
        }
      });
      this.body.appendChild(details);
    }
  }

  /** Draw guard groups from `start` until about GUARD_PAGE rows, then a 'show more' button. */
  private _renderGroups(
    frame: Frame,
    list: HTMLElement,
    groups: IGuardGroup[],
    start: number,
    failedKeys: Set<string>,
    previous: Frame | null,
    anchor: HTMLElement | null
  ): void {
    const fragment = document.createDocumentFragment();
    let rows = 0;
    let i = start;
    for (; i < groups.length && rows < GUARD_PAGE; i++) {
      const { tier, source, guards } = groups[i];
      if (i === 0 || groups[i - 1].tier !== tier) {
        fragment.appendChild(h('div', { class: 'jp-DynamoExplorer-guardTier', text: TIER_TITLES[tier] }));
      }
      rows += guards.length;
      const group = h(
        'div',
        { class: 'jp-DynamoExplorer-guardGroup', data: { source, tier } },
        h(
          'div',
          { class: 'jp-DynamoExplorer-guardSource' },
          source ? h('code', { text: source }) : h('span', { text: sourceless(tier) }),
          h('span', { class: 'jp-DynamoExplorer-muted', text: ` ${guards[0].origin} · ${guards.length}` })
        )
      );
      const folded = foldedMarkRows(guards, failedKeys);
      for (const guard of guards) {
        if (folded.has(guard)) {
          continue;
        }
        const row = this._guardRow(frame, guard);
        if (failedKeys.has(guardKey(guard))) {
          row.classList.add('jp-mod-failed');
          row.title = `the same guard failed in [${previous?.compile_id}] and caused this recompile`;
        }
        group.appendChild(row);
      }
      if (folded.size > 0) {
        group.appendChild(
          this._markRows(
            frame,
            guards.filter(g => folded.has(g))
          )
        );
      }
      fragment.appendChild(group);
    }
    if (i < groups.length) {
      const left = groups.slice(i).reduce((n, g) => n + g.guards.length, 0);
      const more = button(
        `show more (${left} guards left)`,
        () => {
          this._renderGroups(frame, list, groups, i, failedKeys, previous, more);
        },
        { class: 'jp-DynamoExplorer-more' }
      );
      fragment.appendChild(more);
    }
    if (anchor) {
      anchor.replaceWith(fragment);
    } else {
      list.appendChild(fragment);
    }
  }

  /** The global-state guards as one collapsed row that names them and expands to their rows. */
  private _stateRow(frame: Frame, state: Guard[]): HTMLElement {
    const details = h(
      'details',
      { class: 'jp-DynamoExplorer-guardGroup jp-DynamoExplorer-globalState', data: { source: '', tier: 'state' } },
      h('summary', {
        class: 'jp-DynamoExplorer-guardSource',
        text: globalStateSummary(state),
        title: 'Checked on every call, whatever the inputs: grad mode, default device, deterministic algorithms, ...'
      })
    );
    for (const guard of state) {
      details.appendChild(this._guardRow(frame, guard));
    }
    return details;
  }

  /** A tensor's 'not marked' rows (`foldedMarkRows`) as one collapsed line that expands to them. */
  private _markRows(frame: Frame, rows: Guard[]): HTMLElement {
    const { marks } = splitMarkChecks(rows.flatMap(g => g.code));
    return h(
      'details',
      { class: 'jp-DynamoExplorer-markChecks jp-DynamoExplorer-markRows' },
      h('summary', {
        text: `DIMENSION_DYNAMIC_MARKING_GUARD: not marked ${marks.join(', ')} (${rows.length} hasattr checks)`,
        title: MARK_TITLE
      }),
      ...rows.map(g => this._guardRow(frame, g))
    );
  }

  /** A guard's checks, one per line; the 'not marked dynamic' checks of a tensor folded into one line. */
  private _checks(code: string[]): HTMLElement {
    const { kept, markChecks, marks } = splitMarkChecks(code);
    const out = h('span', { class: 'jp-DynamoExplorer-guardCode' }, ...kept.map(c => h('code', { text: c })));
    if (markChecks.length > 0) {
      out.appendChild(
        h(
          'details',
          { class: 'jp-DynamoExplorer-markChecks' },
          h('summary', {
            text: `not marked ${marks.join(', ')} (${markChecks.length} hasattr checks)`,
            title: MARK_TITLE
          }),
          ...markChecks.map(c => h('code', { text: c }))
        )
      );
    }
    return out;
  }

  private _guardRow(frame: Frame, guard: Guard): HTMLElement {
    const fields = guard.type === 'GLOBAL_STATE' && guard.code.length === 1 ? globalStateFields(guard.code[0]) : null;
    const code = fields
      ? h(
          'span',
          { class: 'jp-DynamoExplorer-guardCode', title: guard.code[0] },
          h('code', { text: '___check_global_state() against' }),
          h(
            'span',
            { class: 'jp-DynamoExplorer-stateFields' },
            ...fields.map(([k, v]) => h('code', { text: `${k}=${v}` }))
          )
        )
      : this._checks(guard.code);
    const row = h(
      'div',
      { class: 'jp-DynamoExplorer-guard', data: { type: guard.type } },
      h('span', { class: 'jp-DynamoExplorer-guardType', text: guard.type }),
      code,
      guard.line !== null
        ? button(`line ${guard.line}`, () => void this.ctx.jumpToLine(frame, guard.line!), {
            class: 'jp-DynamoExplorer-link'
          })
        : null
    );
    this.link(row, this.ctx.index.frameLineKey(frame, guard.line));
    return row;
  }

  /**
   * The diff against the compile before, folded under a one-line summary of its counts: a changed guard
   * once, with only its checks that differ.
   */
  private _diff(frame: Frame, previous: Frame, failed: Set<Guard>): HTMLElement {
    const diff = diffGuards(previous.guards, frame.guards);
    const note = diffNote(this.ctx.report, previous, frame);
    const counts = [
      diff.changed.length ? `${diff.changed.length} changed` : '',
      diff.removed.length ? `${diff.removed.length} removed` : '',
      diff.added.length ? `${diff.added.length} added` : '',
      `${diff.unchanged} unchanged`
    ].filter(Boolean);
    const details = h(
      'details',
      { class: 'jp-DynamoExplorer-guardDiff', data: { section: 'guard-diff' } },
      h('summary', { text: `Diff vs guards of [${previous.compile_id}]: ${counts.join(', ')}` })
    );
    const out = h('div', { class: 'jp-DynamoExplorer-diff' });
    const row = (kind: string, text: string, failedGuard = false): HTMLElement =>
      h(
        'div',
        {
          class: `jp-DynamoExplorer-diffRow jp-mod-${kind}${failedGuard ? ' jp-mod-failed' : ''}`,
          data: { diff: kind },
          title: failedGuard ? 'this guard failed' : ''
        },
        text
      );
    for (const { before, after, removed, added } of diff.changed) {
      out.appendChild(row('changed', `~ ${after.type} ${after.source}`, failed.has(before)));
      for (const code of removed) {
        out.appendChild(row('removed', `  - ${code}`));
      }
      for (const code of added) {
        out.appendChild(row('added', `  + ${code}`));
      }
    }
    for (const guard of diff.removed) {
      out.appendChild(row('removed', `- ${guardText(guard)}`, failed.has(guard)));
    }
    for (const guard of diff.added) {
      out.appendChild(row('added', `+ ${guardText(guard)}`));
    }
    if (note) {
      out.appendChild(h('div', { class: 'jp-DynamoExplorer-muted', data: { diff: 'note' }, text: note }));
    }
    details.appendChild(out);
    return details;
  }
}

/** The heading of a group of guards that have no source. */
function sourceless(tier: GuardTier): string {
  return tier === 'shape' ? 'shape environment' : 'global state';
}
