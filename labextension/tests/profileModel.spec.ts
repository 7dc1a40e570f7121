/**
 * The "Why is it slow" model (issue 12 items 1-3), profileModel.ts and profileCalls.ts, on the golden toy_profile
 * (toy_example run with --profile --compare-eager: [0/0] breaks on a data-dependent branch, the resume functions
 * [1/0] and [2/0]) with its times, which the golden normalises to 0, set to known numbers (profileFixtures.ts):
 * the run split and its shares, the speedup sentence and when the compile pays back, graphs ranked by time with
 * their share of the compiled time, eager time by cause naming the graph break and its line, Update 5's coverage
 * rows, hits per cache entry, a stable sort, the words for numbers; (schema minor 8) a graph's first call with its
 * compile work and autotuning apart from the calls after it, the device time no graph's run launched, a backward
 * on another thread. The pane is profile.spec.ts.
 */
import { describe, expect, it } from 'vitest';
import { ReportIndex } from '../src/model/model';
import { deviceParts, firstCallText, steadyText } from '../src/model/profileCalls';
import {
  backwardParts,
  coverageRows,
  eagerRows,
  entryRows,
  formatPct,
  formatSpeedup,
  functionRows,
  hitsByFrame,
  noProfileText,
  paybackRuns,
  paybackSentence,
  rankGraphs,
  runSplit,
  sortRows,
  speedupSentence,
  splitText
} from '../src/model/profileModel';
import type { Profile } from '../src/schema';
import { golden } from './helpers';
import { baseline, calls, onGpu, timed } from './profileFixtures';

describe('profile model', () => {
  const report = timed();
  const profile = report.profile as Profile;
  const index = new ReportIndex(report);

  it('splits the run into compiled, eager and compile, with shares of the run', () => {
    const split = runSplit(profile);
    expect(split.map(p => [p.key, p.ms, p.share])).toEqual([
      ['compiled', 30, 0.03],
      ['eager', 20, 0.02],
      ['compile', 950, 0.95]
    ]);
    expect(split[1].detail).toContain('10 cache lookups (0.50 ms)');
    expect(splitText(profile)).toBe(
      'compiled 30.0 ms (3.0%) · eager 20.0 ms (2.0%, 10 cache lookups 0.50 ms) · compile 950 ms (95%)'
    );
    // nothing measured: no share, no division by zero
    const empty = runSplit({ ...profile, compiled_ms: 0, eager_ms: 0, compile_ms: 0 });
    expect(empty.map(p => p.share)).toEqual([0, 0, 0]);
  });

  it('says the speedup over eager and after how many runs the compile pays back', () => {
    const b = report.eager_baseline!;
    expect(speedupSentence(b)).toBe('compiled run 4.00 ms vs eager 10.0 ms: 2.50× (compile 600 ms not included)');
    expect(paybackRuns(b)).toBe(100); // 600 / (10 - 4)
    expect(paybackSentence(b)).toBe(
      'The compile pays back after 100 runs of the cell (600 ms compile / 6.00 ms saved per run).'
    );
    expect(paybackRuns(baseline({ compile_ms: 601 }))).toBe(101); // rounded up
    expect(paybackRuns(baseline({ compile_ms: 1 }))).toBe(1);
    expect(paybackSentence(baseline({ compile_ms: 1 }))).toContain('after 1 run of the cell');
    expect(paybackRuns(baseline({ compile_ms: 0 }))).toBe(0);
    expect(paybackSentence(baseline({ compile_ms: 0 }))).toContain('nothing to pay back');
    const slower = baseline({ eager_ms: 3, compiled_ms: 4, speedup: 0.75 });
    expect(paybackRuns(slower)).toBeNull();
    expect(paybackSentence(slower)).toBe('The compiled run is slower than eager here, so its compile never pays back.');
    expect(paybackRuns(baseline({ eager_ms: 4, speedup: 1 }))).toBeNull();
    expect(paybackSentence(baseline({ eager_ms: 4, speedup: 1 }))).toContain('no faster than eager');
    expect(speedupSentence(baseline({ compiled_ms: 0, speedup: null }))).toContain(': – (compile');
  });

  it('ranks the graphs by total time, each with its share of the compiled time', () => {
    const rows = rankGraphs(profile, index);
    expect(rows.map(r => [r.rank, r.graph.graph_id, r.graph.compile_id])).toEqual([
      [1, 1, '1/0'],
      [2, 0, '0/0'],
      [3, 2, '2/0']
    ]);
    expect(rows.map(r => formatPct(r.share))).toEqual(['67%', '20%', '13%']);
    expect(rows.every(r => r.shown && r.frame?.compile_id === r.graph.compile_id)).toBe(true);
    // ties in time: the most calls first
    const tied = { ...profile, graphs: profile.graphs.map(g => ({ ...g, total_ms: 1 })) };
    expect(rankGraphs(tied, index).map(r => r.graph.calls)).toEqual([5, 4, 1]);
  });

  it('attributes eager time by cause, the most first, naming the graph break and its line', () => {
    const rows = eagerRows(profile, index);
    expect(rows.map(r => [r.gap.cause, r.gap.compile_id, r.gap.ms])).toEqual([
      ['graph_break', '0/0', 12],
      ['outside', null, 6.5],
      ['frame', '1/0', 1],
      ['frame', '2/0', 0.5]
    ]);
    const [gb, outside, frame] = rows;
    expect(gb.what).toBe('GB0170 Data-dependent branching');
    expect(gb.where).toBe('line 8');
    expect(gb.line).toBe(8);
    expect(gb.gb).toBe(report.frames[0].graph_breaks[0]);
    expect(formatPct(gb.share)).toBe('60%'); // 12 of 20 ms eager
    expect(outside.what).toBe('the cell’s own code, skipped frames');
    expect(outside.frame).toBeNull();
    expect(frame.what).toBe('toy_example after line 8: Dynamo’s glue');
  });

  it("gives Update 5's coverage columns for the cell and each cache entry", () => {
    const rows = coverageRows(profile, index);
    expect(rows.map(r => [r.scope, r.graph_calls, r.captured_ops, r.total_ops, formatPct(r.pct_ops)])).toEqual([
      ['cell', 10, 34, 49, '69%'],
      ['0/0', 5, 25, 30, '83%'],
      ['1/0', 4, 8, 8, '100%'],
      ['2/0', 1, 1, 1, '100%']
    ]);
    expect(rows[0].pct_time).toBe(0.6);
    expect(rows[1].label).toBe('[0/0] toy_example');
  });

  it('reads hits per cache entry, per-function speedups and the backward split', () => {
    expect([...hitsByFrame(report)]).toEqual([
      ['0/0', 5],
      ['1/0', 4],
      ['2/0', 1]
    ]);
    expect(hitsByFrame(golden('toy_example')).size).toBe(0);
    expect(entryRows(profile, index).map(r => [r.entry.compile_id, r.entry.hits, r.frame?.code.name])).toEqual([
      ['0/0', 5, 'toy_example'],
      ['1/0', 4, 'torch_dynamo_resume_in_toy_example_at_8'],
      ['2/0', 1, 'torch_dynamo_resume_in_toy_example_at_8']
    ]);
    const fns = functionRows(report.eager_baseline!, index);
    expect(fns.map(f => [f.fn.name, f.frames.map(fr => fr.compile_id)])).toEqual([
      ['toy_example', ['0/0', '1/0', '2/0']]
    ]);
    expect(backwardParts(profile)).toBeNull();
    const trained = { ...profile, backward: { compiled_calls: 4, compiled_ms: 1.2, eager_nodes: 1, eager_ms: 0.5 } };
    expect(backwardParts(trained)).toEqual({ compiled: 'compiled 4 calls, 1.20 ms', eager: 'eager 1 node, 0.50 ms' });
  });

  it("shows a graph's first call, its compile work and autotuning, apart from the calls after it", () => {
    const p = onGpu().profile!;
    const g1 = p.graphs.find(x => x.graph_id === 1)!;
    expect(firstCallText(g1)).toBe(
      '80.0 ms host, 70.0 ms of it compile work (4,900 kernels, 70.4 ms on the device); its own 2 kernels 0.50 ms on the device'
    );
    expect(steadyText(g1)).toBe('3 calls, mean 3.00 ms (device 1.00 ms per call)');
    const g2 = p.graphs.find(x => x.graph_id === 2)!;
    expect(steadyText(g2)).toBeNull(); // it ran once
    // the CPU: no device words; a report before schema minor 8: nothing
    expect(firstCallText({ ...g1, first_call: calls({ host_ms: 5, compile_ms: 2 }) })).toBe(
      '5.00 ms host, 2.00 ms of it compile work'
    );
    expect(firstCallText({ ...g1, first_call: undefined, steady: undefined })).toBeNull();
    expect(steadyText({ ...g1, steady: undefined })).toBeNull();
    expect(deviceParts(p)).toEqual({
      eager: 'eager 0.02 ms (1 kernel launched outside any graph call)',
      compile: 'compile work 70.4 ms (kernels its autotuning launched)',
      kernels: [{ name: 'normal_kernel', calls: 1, device_ms: 0.02 }]
    });
    expect(deviceParts(profile)).toBeNull(); // the CPU
  });

  it('says how much of a compiled backward was its lazy compile, and that it ran on another thread', () => {
    const backward = {
      compiled_calls: 3,
      compiled_ms: 6500,
      eager_nodes: 6,
      eager_ms: 0.2,
      compile_ms: 6400,
      device_ms: null,
      other_thread_calls: 3
    };
    expect(backwardParts({ ...profile, backward })!.compiled).toBe(
      'compiled 3 calls, 6.50 s (6.40 s of it the lazy backward compile); all on another thread than the cell’s'
    );
    const gpu = { ...backward, compile_ms: 0, device_ms: 2, other_thread_calls: 1 };
    expect(backwardParts({ ...profile, backward: gpu })!.compiled).toBe(
      'compiled 3 calls, 6.50 s, device 2.00 ms; 1 on another thread than the cell’s'
    );
  });

  it('writes numbers for people and sorts stably', () => {
    expect([0, 0.0004, 0.042, 0.5, 1].map(formatPct)).toEqual(['0%', '<0.1%', '4.2%', '50%', '100%']);
    expect([2.5, 0.42, 12.34, null, 0].map(formatSpeedup)).toEqual(['2.50×', '0.42×', '12.3×', '–', '–']);
    const rows = [
      { k: 'b', v: 1 },
      { k: 'a', v: 2 },
      { k: 'c', v: 1 }
    ];
    expect(sortRows(rows, r => r.v, 'desc').map(r => r.k)).toEqual(['a', 'b', 'c']);
    expect(sortRows(rows, r => r.v, 'asc').map(r => r.k)).toEqual(['b', 'c', 'a']);
    expect(sortRows(rows, r => r.k, 'asc').map(r => r.k)).toEqual(['a', 'b', 'c']);
  });

  it('says how to get a profile when there is none', () => {
    const plain = golden('toy_example');
    expect(noProfileText(plain)).toContain('%%dynamo --profile');
    expect(noProfileText(plain)).toContain('--compare-eager');
    expect(noProfileText({ ...plain, eager_baseline: report.eager_baseline })).not.toContain('--compare-eager');
  });
});
