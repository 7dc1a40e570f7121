/**
 * The Try a fix fixtures the model's and the pane's tests share: two fixes on offer for item_break's .item()
 * break, recompile_dtype with a fix for its recompile, builders of a run's outcome and of a `--try` run's
 * before/after, and the body of a `%%dynamo` cell.
 */
import type { CompileReport, Fix, RunOutcome, TryFix } from '../src/schema';
import { golden } from './helpers';

export const ITEM_FIX: Fix = {
  name: 'capture_scalar_outputs',
  title: 'Capture .item() in the graph',
  kind: 'config',
  api: 'torch._dynamo.config.capture_scalar_outputs',
  code: 'torch._dynamo.config.capture_scalar_outputs = True',
  why: 'Dynamo breaks the graph at .item() unless it may trace the scalar as a symbolic value.',
  runnable: true,
  targets: [{ compile_id: '0/0', kind: 'graph_break', index: 0 }]
};

export const COND_HINT: Fix = {
  name: 'cond',
  title: 'Rewrite the branch with torch.cond',
  kind: 'hint',
  api: 'torch.cond',
  code: 'y = torch.cond(pred, true_fn, false_fn, (x,))',
  why: 'Both branches become subgraphs.',
  runnable: false,
  targets: [{ compile_id: '0/0', kind: 'graph_break', index: 0 }]
};

/** item_break (an .item() break in [0/0]) with two fixes on offer. */
export function itemReport(): CompileReport {
  const report = golden('item_break');
  report.fixes = [ITEM_FIX, COND_HINT];
  return report;
}

/** recompile_dtype ([0/1] recompiles `scale` on a dtype change) with a fix for the recompile. */
export function recompileReport(): CompileReport {
  const report = golden('recompile_dtype');
  report.fixes = [
    {
      name: 'dynamic',
      title: 'Compile with dynamic=True',
      kind: 'option',
      api: 'torch.compile(dynamic=True)',
      code: 'torch.compile(fn, dynamic=True)',
      why: 'Sizes become symbolic from the first compile.',
      runnable: true,
      targets: [{ compile_id: '0/1', kind: 'recompile', index: 0 }]
    }
  ];
  return report;
}

export function outcome(over: Partial<RunOutcome>): RunOutcome {
  return {
    frames: 2,
    graphs: 2,
    graph_breaks: 1,
    recompiles: 0,
    error: null,
    wall_ms: 900,
    compile_ms: 400,
    compiled_ms: null,
    eager_ms: null,
    ...over
  };
}

export function tryFix(over: Partial<TryFix> = {}): TryFix {
  return {
    fix: ITEM_FIX,
    before_from: "the cell's previous run in this kernel (In [2])",
    before: outcome({}),
    after: outcome({ frames: 1, graphs: 1, graph_breaks: 0, wall_ms: 880, compile_ms: 380 }),
    change: 'torch._dynamo.config.capture_scalar_outputs = True',
    restored: 'torch._dynamo.config.capture_scalar_outputs = False',
    ...over
  };
}

export const BODY = '\nimport torch\n\ndef normalize(x):\n    return x / x.sum().item()\n';
