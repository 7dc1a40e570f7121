/**
 * The top of the guards pane: why this compiled code runs again. For a code object compiled more than once, its
 * recompile timeline ([0/0] → [0/1], the failed guard on each arrow; a click selects a compile); then the reasons
 * of this recompile: for each old cache entry, Dynamo's reason and every guard of it that failed, with what it
 * expected and what the call brought (minor 6), and the automatic-dynamic decision a shape recompile led to.
 */
import { button, h, plural, type Child, type IProps } from '../../dom';
import {
  dynamicDecisions,
  failureHead,
  recompileTimeline,
  shortReason,
  type IDynamicDecision
} from '../../model/guardsModel';
import type { Frame, GuardFailure, RecompileReason } from '../../schema';
import type { IPaneParts } from './pane';

/** What automatic dynamic shapes are: the tooltip of the decisions they made. */
const DECISION_TITLE =
  "Dynamo's automatic dynamic shapes: an input whose size (or int value) differs from an earlier compile of the " +
  'same code is traced symbolically from then on (TORCH_LOGS=dynamic)';

/** The compiles of this frame's code object, each arrow naming the guard that failed; a click selects one. */
export function recompileTimelineBox(host: IPaneParts, frame: Frame): HTMLElement | null {
  const timeline = recompileTimeline(host.ctx.index, frame);
  if (!timeline) {
    return null;
  }
  const select = (target: Frame) => () => void host.ctx.selectFrame(target.compile_id);
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
  return box;
}

/**
 * Why this compile happened, per old cache entry. With its failures (minor 6): "Recompiled: N guards of [0/0]
 * failed" (Dynamo's own reason and user stack folded below it), then every failing guard with what it
 * expected and what the call brought, the one Dynamo's reason names marked, and under a failure that led
 * automatic dynamic to mark its input dynamic, that decision and the symbols this compile got. Without them
 * (an older report, or none could be evaluated): Dynamo's reason, and the note that says why.
 */
export function recompileReasons(host: IPaneParts, frame: Frame, previous: Frame | null): HTMLElement | null {
  if (frame.recompile_reasons.length === 0) {
    return null;
  }
  const box = h('div', { class: 'jp-DynamoExplorer-recompile', data: { section: 'recompile-reasons' } });
  const decisions = dynamicDecisions(host.ctx.report, frame);
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
    const list = failuresOf(host, frame, reason, previous, decisions);
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
  return box;
}

/**
 * The failures of one old cache entry, one row each: guard kind, the value and what failed, its line, expected
 * and actual, and the automatic-dynamic decision it led to. Null for a report older than minor 6; an empty
 * list shows only its note (failures_note).
 */
function failuresOf(
  host: IPaneParts,
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
    box.appendChild(failureRow(host, frame, failure, previous, decision));
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
function failureRow(
  host: IPaneParts,
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
      ? button(`line ${failure.line}`, () => void host.ctx.jumpToLine(where, failure.line!), {
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
  host.link(row, host.ctx.index.frameLineKey(where, failure.line));
  return row;
}

/** A button (type=button, so it submits nothing) with element children. */
function plainButton(props: IProps, ...children: Child[]): HTMLButtonElement {
  const el = h('button', props, ...children);
  el.type = 'button';
  return el;
}
