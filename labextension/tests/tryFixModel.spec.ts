/**
 * The Try a fix model (issue 13 item 4, tryFixModel.ts): the magic line built from the cell's own `%%dynamo` line
 * and the report's options, and the before/after table of a `--try` run. The pane is tryFix.spec.ts.
 */
import { describe, expect, it } from 'vitest';
import { magicLine, outcomeRows, outcomeSummary, tryCellSource } from '../src/model/tryFixModel';
import { golden } from './helpers';
import { BODY, outcome, tryFix } from './tryFixFixtures';

describe('the magic line', () => {
  it('appends --try NAME to the cell’s own %%dynamo line and keeps the body', () => {
    const source = `%%dynamo --backend eager${BODY}`;
    expect(tryCellSource(source, 'capture_scalar_outputs')).toBe(
      `%%dynamo --backend eager --try capture_scalar_outputs${BODY}`
    );
    expect(tryCellSource(`%%dynamo${BODY}`, 'dynamic')).toBe(`%%dynamo --try dynamic${BODY}`);
    expect(tryCellSource('%%dynamo', 'dynamic')).toBe('%%dynamo --try dynamic');
  });

  it('replaces a --try the line already has, in either spelling', () => {
    expect(tryCellSource(`%%dynamo --try dynamic --backend eager${BODY}`, 'mark_dynamic:x:0')).toBe(
      `%%dynamo --backend eager --try mark_dynamic:x:0${BODY}`
    );
    expect(tryCellSource(`%%dynamo --backend eager --try=dynamic --profile${BODY}`, 'dynamic')).toBe(
      `%%dynamo --backend eager --profile --try dynamic${BODY}`
    );
    expect(tryCellSource(`%%dynamo --try "a b"${BODY}`, 'c')).toBe(`%%dynamo --try c${BODY}`);
  });

  it('refuses a cell whose first line is not %%dynamo', () => {
    expect(tryCellSource('import torch\nx = 1\n', 'dynamic')).toBeNull();
    expect(tryCellSource('%%time\n%%dynamo\n', 'dynamic')).toBeNull();
    expect(tryCellSource('%%dynamox\n', 'dynamic')).toBeNull();
  });

  it('writes the report’s options back, so the kernel finds the run without the fix', () => {
    const options = golden('item_break').options;
    expect(magicLine(options, 'capture_scalar_outputs')).toBe('%%dynamo --backend eager --try capture_scalar_outputs');
    expect(
      magicLine(
        {
          ...options,
          backend: 'inductor',
          mode: 'max-autotune',
          dynamic: false,
          fullgraph: true,
          scope: 'cell',
          recompile_limit: 2,
          decompile: 'none',
          fresh: true,
          profile: true,
          compare_eager: true
        },
        'allow_in_graph:my helper'
      )
    ).toBe(
      '%%dynamo --mode max-autotune --no-dynamic --fullgraph --scope cell --recompile-limit 2 --decompile none ' +
        '--fresh --profile --compare-eager --try "allow_in_graph:my helper"'
    );
    expect(magicLine({ ...options, dynamic: true }, 'x')).toBe('%%dynamo --backend eager --dynamic --try x');
    // --trace-steps is one of the options the kernel matches the run before on
    expect(magicLine({ ...options, trace_steps: '' }, 'x')).toBe('%%dynamo --backend eager --trace-steps --try x');
    expect(magicLine({ ...options, decisions: true }, 'x')).toBe('%%dynamo --backend eager --decisions --try x');
    expect(magicLine({ ...options, override_compile_options: true }, 'x')).toBe(
      '%%dynamo --backend eager --override-compile-options --try x'
    );
    expect(magicLine({ ...options, trace_steps: 'f', trace_steps_max: 50 }, 'x')).toBe(
      '%%dynamo --backend eager --trace-steps f --trace-steps-max 50 --try x'
    );
  });
});

describe('the before/after table', () => {
  it('marks fewer breaks, graphs and frames better, more worse, and leaves equal ones alone', () => {
    const rows = outcomeRows(tryFix({ after: outcome({ frames: 1, graphs: 1, graph_breaks: 0, recompiles: 1 }) }));
    expect(rows.map(r => [r.key, r.before, r.after, r.change])).toEqual([
      ['frames', '2', '1', 'better'],
      ['graphs', '2', '1', 'better'],
      ['graph_breaks', '1', '0', 'better'],
      ['recompiles', '0', '1', 'worse'],
      ['compile_ms', '400 ms', '400 ms', 'same'],
      ['wall_ms', '900 ms', '900 ms', 'same']
    ]);
  });

  it('adds the profiled times when both runs have them, a change within 10% being noise', () => {
    const rows = outcomeRows(
      tryFix({
        before: outcome({ compiled_ms: 2, eager_ms: 10 }),
        after: outcome({ compiled_ms: 4, eager_ms: 9.5, compile_ms: 200 })
      })
    );
    const byKey = new Map(rows.map(r => [r.key, r]));
    expect(byKey.get('compiled_ms')).toMatchObject({ before: '2.00 ms', after: '4.00 ms', change: 'worse' });
    expect(byKey.get('eager_ms')).toMatchObject({ before: '10.0 ms', after: '9.50 ms', change: 'same' });
    expect(byKey.get('compile_ms')).toMatchObject({ change: 'better' });
    // only one run profiled: no time rows for it
    expect(outcomeRows(tryFix({ before: outcome({ compiled_ms: 2 }) })).map(r => r.key)).not.toContain('compiled_ms');
  });

  it('shows the exception of either run', () => {
    const rows = outcomeRows(tryFix({ after: outcome({ error: 'RuntimeError: boom' }) }));
    expect(rows.at(-1)).toEqual({
      key: 'error',
      label: 'exception',
      before: 'none',
      after: 'RuntimeError: boom',
      change: 'worse'
    });
    expect(outcomeSummary(tryFix())).toBe(
      'capture_scalar_outputs: frames compiled 2 → 1, graphs 2 → 1, graph breaks 1 → 0'
    );
    expect(outcomeSummary(tryFix({ after: outcome({}) }))).toBe('capture_scalar_outputs: changed nothing counted');
  });
});
