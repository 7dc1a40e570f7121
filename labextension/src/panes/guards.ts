/**
 * Guards pane: why this compiled code runs again, or not. On top, for a code object compiled more than once,
 * its recompile timeline ([0/0] → [0/1], the failed guard on each arrow) and the reasons of this recompile:
 * for each old cache entry, Dynamo's reason and every guard of it that failed, with what it expected and
 * what the call brought (minor 6), and the automatic-dynamic decision a shape recompile led to; then the
 * diff against the compile before. Then the frame's guards, grouped by source and ordered by `orderGuards`
 * (guardsModel.ts): the failed ones, the shape guards, the inputs, modules and parameters, globals; the
 * global state last, as one collapsed summary row. The raw guard tree closes the pane. The frame's
 * dynamic-shape symbols are in the frame title (frameSymbols.ts).
 */
import type { IViewContext } from '../context';
import { button, clear, h, plural, type Child, type IProps } from '../dom';
import {
  diffGuards,
  diffNote,
  dynamicDecisions,
  failedGuardsOf,
  failureHead,
  globalStateFields,
  globalStateSummary,
  guardKey,
  orderGuards,
  recompileTimeline,
  shortReason,
  splitMarkChecks,
  TIER_TITLES,
  type GuardTier,
  type IDynamicDecision,
  type IGuardGroup
} from '../guardsModel';
import { guardText } from '../model';
import { partCut } from '../partsModel';
import { PANE_TITLES, type Frame, type Guard, type GuardFailure, type RecompileReason } from '../schema';
import { emptyState, Pane } from './pane';
import { partControl } from './partControl';

/** Guard rows drawn at first (and per 'show more'): a model with thousands of parameters has tens of thousands. */
const DECISION_TITLE =
  "Dynamo's automatic dynamic shapes: an input whose size (or int value) differs from an earlier compile of the " +
  'same code is traced symbolically from then on (TORCH_LOGS=dynamic)';

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
    const { index, report } = this.ctx;
    clear(this.body);
    this.title.textContent = `${PANE_TITLES.guards} (${frame.guards.length})`;
    const previous =
      frame.recompile_reasons.length > 0 || index.recompileCount > 0 ? index.previousCompile(frame) : null;
    const failed = failedGuardsOf(frame, previous);
    const failedKeys = new Set([...failed].map(guardKey));
    this._timeline(frame);
    this._reasons(frame, previous);
    if (previous && previous !== frame) {
      this.body.appendChild(this._diff(frame, previous, failed));
    }
    if (frame.guards.length === 0) {
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
    const guardsCut = partCut(report, frame, 'guards');
    if (guardsCut) {
      this.body.appendChild(partControl(this.ctx, frame, guardsCut, { unit: 'guards' }, () => void this.update(frame)));
    }
    const list = h('div', { class: 'jp-DynamoExplorer-guardList', data: { section: 'guards' } });
    this.body.appendChild(list);
    this._renderGroups(frame, list, groups, 0, failedKeys, previous, null);
    if (state.length > 0) {
      list.appendChild(this._stateRow(frame, state));
    }
    if (frame.guard_tree) {
      const tree = index.labelPaths(frame.guard_tree);
      const details = h(
        'details',
        { class: 'jp-DynamoExplorer-guardTree' },
        h('summary', { text: `Guard tree (as TORCH_LOGS=guards prints it, ${tree.split('\n').length} lines)` })
      );
      const treeCut = partCut(report, frame, 'guard_tree');
      if (treeCut) {
        const reopen = (): void =>
          void this.update(frame).then(() =>
            this.body.querySelector('.jp-DynamoExplorer-guardTree')?.setAttribute('open', '')
          );
        details.appendChild(partControl(this.ctx, frame, treeCut, { unit: 'characters of the tree' }, reopen));
      }
      const shown = details.childElementCount;
      details.addEventListener('toggle', () => {
        if (details.open && details.childElementCount === shown) {
          details.appendChild(h('pre', { class: 'jp-DynamoExplorer-code', text: tree }));
        }
      });
      this.body.appendChild(details);
    }
  }

  /** The compiles of this frame's code object, each arrow naming the guard that failed; a click selects one. */
  private _timeline(frame: Frame): void {
    const timeline = recompileTimeline(this.ctx.index, frame);
    if (!timeline) {
      return;
    }
    const select = (target: Frame) => () => void this.ctx.selectFrame(target.compile_id);
    const box = h(
      'div',
      { class: 'jp-DynamoExplorer-timeline', data: { section: 'recompile-timeline' } },
      h('span', { class: 'jp-DynamoExplorer-muted', text: `${timeline.frames.length} compiles of ${frame.code.name}:` })
    );
    timeline.frames.forEach((f, i) => {
      if (i > 0) {
        const step = timeline.steps[i - 1];
        box.appendChild(
          plainButton(
            {
              class: 'jp-DynamoExplorer-timelineStep',
              title: `[${step.to.compile_id}] was compiled because a guard of [${step.from.compile_id}] failed:\n${step.reason}`,
              data: { from: step.from.compile_id, to: step.to.compile_id },
              onclick: select(step.to)
            },
            h('span', { text: '→ ' }),
            h('code', { text: step.short }),
            h('span', { text: ' →' })
          )
        );
      }
      const chip = plainButton(
        {
          class: `jp-DynamoExplorer-chip jp-DynamoExplorer-status-${f.status}${f === frame ? ' jp-mod-selected' : ''}`,
          title: `[${f.compile_id}] ${f.code.name}: ${f.status.replace('_', ' ')}`,
          data: { compileId: f.compile_id },
          onclick: select(f)
        },
        h('span', { class: 'jp-DynamoExplorer-statusDot' }),
        `[${f.compile_id}]`
      );
      if (f === frame) {
        chip.setAttribute('aria-current', 'true');
      }
      box.appendChild(chip);
    });
    this.body.appendChild(box);
  }

  /**
   * Why this compile happened, per old cache entry. With its failures (minor 6): "Recompiled: N guards of [0/0]
   * failed" (Dynamo's own reason and user stack folded below it), then every failing guard with what it
   * expected and what the call brought, the one Dynamo's reason names marked, and under a failure that led
   * automatic dynamic to mark its input dynamic, that decision and the symbols this compile got. Without them
   * (an older report, or none could be evaluated): Dynamo's reason, and the note that says why.
   */
  private _reasons(frame: Frame, previous: Frame | null): void {
    if (frame.recompile_reasons.length === 0) {
      return;
    }
    const box = h('div', { class: 'jp-DynamoExplorer-recompile', data: { section: 'recompile-reasons' } });
    const decisions = dynamicDecisions(this.ctx.report, frame);
    for (const reason of frame.recompile_reasons) {
      const failures = reason.failures ?? [];
      const old = reason.failed_compile_id ? `[${reason.failed_compile_id}]` : 'the old entry';
      const short = shortReason(reason.reason);
      const rest = reason.reason.slice(reason.reason.indexOf(short) + short.length).trim();
      const head =
        failures.length > 0
          ? h('strong', { text: `Recompiled: ${plural(failures.length, 'guard')} of ${old} failed for this call` })
          : h(
              'span',
              {},
              h('strong', {
                text: `Recompiled${reason.failed_compile_id ? `: a guard of ${old} failed` : ''}: `
              }),
              h('code', { class: 'jp-DynamoExplorer-message', text: short })
            );
      box.appendChild(
        rest || failures.length > 0
          ? h(
              'details',
              { class: 'jp-DynamoExplorer-recompileReason' },
              h('summary', { title: "Dynamo's own reason names the first failing guard it met" }, head),
              h('pre', { class: 'jp-DynamoExplorer-code', text: `Dynamo's reason: ${reason.reason}` })
            )
          : h('div', { class: 'jp-DynamoExplorer-recompileReason' }, head)
      );
      const list = this._failures(frame, reason, previous, decisions);
      if (list) {
        box.appendChild(list);
      }
    }
    const untied = decisions.filter(d => d.failure === null);
    if (untied.length > 0) {
      box.appendChild(
        h(
          'ul',
          {
            class: 'jp-DynamoExplorer-dynamicDecisions',
            data: { section: 'automatic-dynamic-decisions' },
            title: DECISION_TITLE
          },
          ...untied.map(d =>
            h(
              'li',
              { data: { source: d.decision.source } },
              h('span', { class: 'jp-DynamoExplorer-message', text: d.text })
            )
          )
        )
      );
    }
    this.body.appendChild(box);
  }

  /**
   * The failures of one old cache entry, one row each: guard kind, the value and what failed, its line, expected
   * and actual, and the automatic-dynamic decision it led to. Null for a report older than minor 6; an empty
   * list shows only its note (failures_note).
   */
  private _failures(
    frame: Frame,
    reason: RecompileReason,
    previous: Frame | null,
    decisions: IDynamicDecision[]
  ): HTMLElement | null {
    const failures = reason.failures;
    if (failures === undefined) {
      return null;
    }
    const box = h('div', {
      class: 'jp-DynamoExplorer-failures',
      data: { section: 'guard-failures', failedCompileId: reason.failed_compile_id ?? '' }
    });
    for (const failure of failures) {
      const decision = decisions.find(d => d.failure === failure) ?? null;
      box.appendChild(this._failureRow(frame, failure, previous, decision));
    }
    if (reason.failures_note) {
      box.appendChild(
        h('div', { class: 'jp-DynamoExplorer-muted jp-DynamoExplorer-failuresNote', text: reason.failures_note })
      );
    }
    return box;
  }

  /**
   * One failing guard: its kind, the value and what failed, a link to its line, expected and actual; below it,
   * the decision it led automatic dynamic to (`→ Dynamo marked L['x'] dim 0 dynamic; [0/1] compiled with s0`).
   */
  private _failureRow(
    frame: Frame,
    failure: GuardFailure,
    previous: Frame | null,
    decision: IDynamicDecision | null
  ): HTMLElement {
    const where = previous ?? frame;
    const { source, what } = failureHead(failure);
    const row = h(
      'div',
      {
        class: `jp-DynamoExplorer-failure${failure.in_reason ? ' jp-mod-reason' : ''}`,
        data: { type: failure.guard_type, source: failure.source, property: failure.property ?? '' },
        title: `${failure.check}${failure.in_reason ? "\n(the guard Dynamo's reason names)" : ''}`
      },
      h('span', { class: 'jp-DynamoExplorer-guardType', text: failure.guard_type }),
      h(
        'span',
        { class: 'jp-DynamoExplorer-failureWhat' },
        source ? h('code', { text: source }) : null,
        source ? ' ' : null,
        what === failure.check ? h('code', { text: what }) : h('span', { text: what })
      ),
      h(
        'span',
        { class: 'jp-DynamoExplorer-failureValues' },
        'expected ',
        h('code', { class: 'jp-DynamoExplorer-expected', text: failure.expected }),
        ', actual ',
        h('code', { class: 'jp-DynamoExplorer-actual', text: failure.actual ?? '?' })
      ),
      failure.line !== null
        ? button(`line ${failure.line}`, () => void this.ctx.jumpToLine(where, failure.line!), {
            class: 'jp-DynamoExplorer-link'
          })
        : null,
      decision
        ? h('span', {
            class: 'jp-DynamoExplorer-decision',
            data: { section: 'automatic-dynamic-decision' },
            title: DECISION_TITLE,
            text: `→ ${decision.marked}`
          })
        : null
    );
    this.link(row, this.ctx.index.frameLineKey(where, failure.line));
    return row;
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
      for (const guard of guards) {
        const row = this._guardRow(frame, guard);
        if (failedKeys.has(guardKey(guard))) {
          row.classList.add('jp-mod-failed');
          row.title = `the same guard failed in [${previous?.compile_id}] and caused this recompile`;
        }
        group.appendChild(row);
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
            title: 'The tensor carries no mark of torch._dynamo.mark_dynamic, mark_unbacked, mark_static, ...'
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

/** A button (type=button, so it submits nothing) with element children. */
function plainButton(props: IProps, ...children: Child[]): HTMLButtonElement {
  const el = h('button', props, ...children);
  el.type = 'button';
  return el;
}

/** The heading of a group of guards that have no source. */
function sourceless(tier: GuardTier): string {
  return tier === 'shape' ? 'shape environment' : 'global state';
}
