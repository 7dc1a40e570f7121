/**
 * The profile fixtures the profile model's and pane's tests share: the golden toy_profile with known times
 * (`timed`), the same run seen on a GPU (`onGpu`), and builders of a graph's calls and of an eager baseline.
 */
import type { CallsProfile, CompileReport, EagerBaseline } from '../src/schema';
import { golden } from './helpers';

/**
 * toy_profile with known times: a 1 s run (30 ms in graphs, 20 ms eager with 10 cache lookups, 950 ms
 * compiling); graph 1 (resume [1/0]) took the most, then graph 0, then graph 2; the graph break of [0/0]
 * cost the most eager time; eager 10 ms vs compiled 4 ms with a 600 ms compile.
 */
export function timed(): CompileReport {
  const report = golden('toy_profile');
  const p = report.profile!;
  Object.assign(p, { wall_ms: 1000, compiled_ms: 30, eager_ms: 20, compile_ms: 950 });
  Object.assign(p, { cache_lookups: 10, cache_lookup_ms: 0.5 });
  const total: Record<number, number> = { 0: 6, 1: 20, 2: 4 };
  for (const g of p.graphs) {
    g.total_ms = total[g.graph_id!];
    g.mean_ms = g.total_ms / g.calls;
    // the first call holds a quarter of the time (all of it when it is the only one), the calls after it the rest
    g.first_call = calls({ host_ms: g.calls > 1 ? g.total_ms / 4 : g.total_ms });
    g.steady = g.calls > 1 ? calls({ calls: g.calls - 1, host_ms: (g.total_ms * 3) / 4 }) : null;
  }
  const ms: Record<string, number> = { graph_break: 12, outside: 6.5, '1/0': 1, '2/0': 0.5 };
  for (const e of p.eager) {
    e.ms = e.cause === 'frame' ? ms[e.compile_id!] : ms[e.cause];
  }
  p.coverage.pct_time = 0.6;
  for (const e of p.entries) {
    Object.assign(e, { total_ms: 2, self_ms: 1.5, graph_ms: 1, eager_ms: 0.5, cache_lookup_ms: 0.05 });
  }
  Object.assign(report.eager_baseline!, { eager_ms: 10, compiled_ms: 4, compile_ms: 600, speedup: 2.5 });
  Object.assign(report.eager_baseline!.functions[0], { eager_ms: 9, compiled_ms: 3.5, speedup: 9 / 3.5 });
  return report;
}

export function calls(extra: Partial<CallsProfile>): CallsProfile {
  return {
    calls: 1,
    host_ms: 0,
    compile_ms: 0,
    device_ms: null,
    kernels: 0,
    compile_device_ms: null,
    compile_kernels: 0,
    ...extra
  };
}

/**
 * timed() on a GPU, as the GPT-2 step was seen: graph 1 ([1/0]) autotuned in its first call (80 ms, 70 ms of it
 * compile work that launched 4,900 L2-flush kernels, 70.4 ms on the device) and then ran 3 more calls at 3 ms;
 * graph 0 ran its 5 calls without compile work; the cell's eager randn kernel is eager, not graph 1's.
 */
export function onGpu(): CompileReport {
  const report = timed();
  const p = report.profile!;
  p.device = 'cuda';
  Object.assign(p, { eager_device_ms: 0.02, compile_device_ms: 70.4 });
  p.eager_kernels = [{ name: 'normal_kernel', calls: 1, device_ms: 0.02 }];
  for (const g of p.graphs) {
    g.device_ms = 0;
    g.first_call = calls({ host_ms: g.mean_ms, device_ms: 0 });
    g.steady = g.calls > 1 ? calls({ calls: g.calls - 1, host_ms: g.mean_ms * (g.calls - 1), device_ms: 0 }) : null;
  }
  const g1 = p.graphs.find(x => x.graph_id === 1)!;
  Object.assign(g1, { calls: 4, total_ms: 89, mean_ms: 22.25, device_ms: 3.5 });
  g1.first_call = calls({
    host_ms: 80,
    compile_ms: 70,
    device_ms: 0.5,
    kernels: 2,
    compile_device_ms: 70.4,
    compile_kernels: 4900
  });
  g1.steady = calls({ calls: 3, host_ms: 9, device_ms: 3, kernels: 6 });
  return report;
}

export function baseline(extra: Partial<EagerBaseline>): EagerBaseline {
  return { method: 'm', eager_ms: 10, compiled_ms: 4, compile_ms: 600, speedup: 2.5, functions: [], ...extra };
}
