/**
 * The "Why is it slow" pane (issue 12 items 1-3) and its model, on the golden toy_profile (toy_example run with
 * --profile --compare-eager: [0/0] breaks on a data-dependent branch, the resume functions [1/0] and [2/0])
 * with its times, which the golden normalises to 0, set to known numbers:
 * - the model: the run split and its shares, the speedup sentence and when the compile pays back, graphs
 *   ranked by time with their share of the compiled time, eager time by cause naming the graph break and its
 *   line, Update 5's coverage rows, hits per cache entry, a stable sort, the words for numbers;
 * - the pane in the real renderer: the split bar's widths, the speedup and payback lines, the ranked graph
 *   table (a row opens its graph in the FX pane), the eager row's link to the break's line, the coverage
 *   numbers, sorting by a column, the shown frame's rows marked, the frames pane's "×N hits" badges;
 * - reports without a profile (a hint), with only a baseline, with GPU kernels, and report strings kept text;
 * - (schema minor 8) a graph's first call with its compile work and autotuning apart from the calls after it,
 *   the device time no graph's run launched (eager kernels, autotuning's), a backward on another thread.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ReportIndex } from '../src/model';
import {
  backwardParts,
  coverageRows,
  deviceParts,
  eagerRows,
  entryRows,
  formatPct,
  firstCallText,
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
  splitText,
  steadyText
} from '../src/profileModel';
import type { CallsProfile, CompileReport, EagerBaseline, Profile } from '../src/schema';
import { golden, pane, render, settled } from './helpers';

afterEach(() => {
  document.body.textContent = '';
});

/**
 * toy_profile with known times: a 1 s run (30 ms in graphs, 20 ms eager with 10 cache lookups, 950 ms
 * compiling); graph 1 (resume [1/0]) took the most, then graph 0, then graph 2; the graph break of [0/0]
 * cost the most eager time; eager 10 ms vs compiled 4 ms with a 600 ms compile.
 */
function timed(): CompileReport {
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

function calls(extra: Partial<CallsProfile>): CallsProfile {
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
function onGpu(): CompileReport {
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

function baseline(extra: Partial<EagerBaseline>): EagerBaseline {
  return { method: 'm', eager_ms: 10, compiled_ms: 4, compile_ms: 600, speedup: 2.5, functions: [], ...extra };
}

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

describe('profile pane', () => {
  it('sits under the header, full width, titled "Why is it slow"', async () => {
    const { root } = await render(timed());
    const el = pane(root, 'profile');
    expect(el.previousElementSibling).toBe(pane(root, 'header'));
    expect(el.parentElement).toBe(root);
    expect(el.querySelector('.jp-DynamoExplorer-paneTitleText')!.textContent).toBe('Why is it slow');
  });

  it('draws the run split as one bar of three parts sized by their shares, with a legend', async () => {
    const { root } = await render(timed());
    const split = pane(root, 'profile').querySelector<HTMLElement>('[data-section="split"]')!;
    const parts = Array.from(split.querySelectorAll<HTMLElement>('.jp-DynamoExplorer-splitPart'));
    expect(parts.map(p => [p.dataset.part, p.style.width])).toEqual([
      ['compiled', '3%'],
      ['eager', '2%'],
      ['compile', '95%']
    ]);
    expect(split.querySelector('[role="img"]')!.getAttribute('aria-label')).toContain('compile 950 ms (95%)');
    const legend = Array.from(split.querySelectorAll('li'), li => li.textContent);
    expect(legend).toEqual([
      'compiled 30.0 ms (3.0%)',
      'eager 20.0 ms (2.0%) incl. 10 cache lookups, 0.50 ms',
      'compile 950 ms (95%)'
    ]);
    expect(split.textContent).toContain('The profiled run: 1.00 s');
  });

  it('says the speedup over eager, when the compile pays back, and the speedup per function', async () => {
    const { root, widget } = await render(timed());
    const speedup = pane(root, 'profile').querySelector<HTMLElement>('[data-section="speedup"]')!;
    expect(speedup.dataset.verdict).toBe('faster');
    expect(speedup.querySelector('.jp-DynamoExplorer-speedupLine')!.textContent).toBe(
      'compiled run 4.00 ms vs eager 10.0 ms: 2.50× (compile 600 ms not included)'
    );
    expect(speedup.querySelector<HTMLElement>('[data-runs]')!.dataset.runs).toBe('100');
    const fn = speedup.querySelector('[data-section="functions"] tbody tr')!;
    expect(Array.from(fn.querySelectorAll('td'), td => td.textContent)).toEqual([
      'toy_example[0/0][1/0][2/0]',
      '5',
      '9.00 ms',
      '3.50 ms',
      '2.57×'
    ]);
    // the function's frame links select the frame
    fn.querySelector<HTMLElement>('[data-frame="2/0"]')!.click();
    await settled(root);
    expect(widget.view!.frame!.compile_id).toBe('2/0');
  });

  it('ranks the graphs by time, and a click on a row opens its graph in the FX pane', async () => {
    const { root, widget } = await render(timed());
    const table = pane(root, 'profile').querySelector<HTMLElement>('[data-section="graphs"]')!;
    const rows = Array.from(table.querySelectorAll<HTMLElement>('tbody tr'));
    expect(rows.map(r => r.dataset.graphId)).toEqual(['1', '0', '2']);
    expect(Array.from(rows[0].querySelectorAll('td'), td => td.textContent)).toEqual([
      '1',
      '[1/0]graph 1',
      '4',
      '20.0 ms',
      '5.00 ms',
      '67%',
      '2',
      '5.00 ms',
      '3× 5.00 ms'
    ]);
    // no GPU: no device or kernel columns
    expect(Array.from(table.querySelectorAll('th'), th => th.textContent)).toEqual([
      '#',
      'graph',
      'calls',
      'total',
      'mean',
      '% compiled',
      'ops/call',
      'first call',
      'then'
    ]);
    const fx = pane(root, 'fx-graph');
    expect(widget.view!.frame!.compile_id).toBe('0/0');
    rows[0].querySelectorAll('td')[3].dispatchEvent(new MouseEvent('click', { bubbles: true }));
    await settled(root);
    expect(fx.dataset.graphId).toBe('1');
    expect(widget.view!.frame!.compile_id).toBe('1/0');
    // the graph link does the same from the keyboard (a button)
    const link = rows[2].querySelector<HTMLButtonElement>('button[data-graph-id="2"]')!;
    expect(link.tagName).toBe('BUTTON');
    link.click();
    await settled(root);
    expect(fx.dataset.graphId).toBe('2');
    // the rows of the frame shown now are marked
    expect(rows.map(r => r.classList.contains('jp-mod-current'))).toEqual([false, false, true]);
  });

  it('attributes eager time by cause, and the graph break row shows its line', async () => {
    const { root, widget } = await render(timed());
    await widget.view!.selectFrame('2/0');
    await settled(root);
    const table = pane(root, 'profile').querySelector<HTMLElement>('[data-section="eager"]')!;
    const rows = Array.from(table.querySelectorAll<HTMLElement>('tbody tr'));
    expect(rows.map(r => r.dataset.cause)).toEqual(['graph_break', 'outside', 'frame', 'frame']);
    const cells = Array.from(rows[0].querySelectorAll('td'), td => td.textContent);
    expect(cells).toEqual([
      '1',
      'graph_break',
      'GB0170 Data-dependent branchingline 8[0/0]',
      '5',
      '12.0 ms',
      '60%',
      '5'
    ]);
    rows[0].querySelector<HTMLElement>('[data-jump="8"]')!.click();
    await settled(root);
    expect(widget.view!.frame!.compile_id).toBe('0/0');
    expect(pane(root, 'source').querySelector('[data-line="8"]')!.classList.contains('jp-mod-selected')).toBe(true);
  });

  it("shows Update 5's coverage numbers and cache entries", async () => {
    const { root } = await render(timed());
    const profile = pane(root, 'profile');
    const coverage = profile.querySelector<HTMLElement>('[data-section="coverage"]')!;
    expect(coverage.querySelector('h3')!.textContent).toBe('Captured-op coverage (3 graphs ran)');
    expect(Array.from(coverage.querySelectorAll('th'), th => th.textContent)).toEqual([
      'scope',
      'graph_calls',
      'captured_ops',
      'total_ops',
      'pct_ops',
      'pct_time'
    ]);
    const rows = Array.from(coverage.querySelectorAll('tbody tr'), tr =>
      Array.from(tr.querySelectorAll('td'), td => td.textContent)
    );
    expect(rows[0]).toEqual(['cell', '10', '34', '49', '69%', '60%']);
    expect(rows[1]).toEqual(['[0/0] toy_example', '5', '25', '30', '83%', '0%']);
    expect(rows).toHaveLength(4);
    const entries = profile.querySelector<HTMLElement>('[data-section="entries"]')!;
    const first = Array.from(entries.querySelectorAll('tbody tr')[1].querySelectorAll('td'), td => td.textContent);
    expect(first).toEqual([
      '[1/0] toy_example after line 8',
      '4',
      '2.00 ms',
      '1.50 ms',
      '1.00 ms',
      '0.50 ms',
      '0',
      '0.05 ms'
    ]);
    expect(profile.querySelector('[data-section="backward"]')).toBeNull();
    const method = profile.querySelector<HTMLDetailsElement>('details[data-section="method"]')!;
    expect(method.open).toBe(false);
    expect(method.querySelector('[data-method="profile"]')!.textContent).toContain('torch.profiler');
    expect(method.querySelector('[data-method="eager_baseline"]')!.textContent).toContain('The cell ran twice');
  });

  it('splits the backward into compiled graphs and eager nodes when one ran', async () => {
    const report = timed();
    report.profile!.backward = { compiled_calls: 4, compiled_ms: 1.2, eager_nodes: 6, eager_ms: 0.5 };
    const { root } = await render(report);
    const backward = pane(root, 'profile').querySelector<HTMLElement>('[data-section="backward"]')!;
    expect(Array.from(backward.querySelectorAll('li'), li => li.textContent)).toEqual([
      'compiled 4 calls, 1.20 ms',
      'eager 6 nodes, 0.50 ms'
    ]);
  });

  it('sorts a table by a click on a column head, again to reverse', async () => {
    const { root } = await render(timed());
    const table = pane(root, 'profile').querySelector<HTMLElement>('[data-section="graphs"]')!;
    const order = (): string[] => Array.from(table.querySelectorAll<HTMLElement>('tbody tr'), r => r.dataset.graphId!);
    const head = Array.from(table.querySelectorAll('th')).find(th => th.textContent === 'calls')!;
    head.querySelector('button')!.click();
    expect(order()).toEqual(['0', '1', '2']); // 5, 4, 1 calls
    expect(head.getAttribute('aria-sort')).toBe('descending');
    head.querySelector('button')!.click();
    expect(order()).toEqual(['2', '1', '0']);
    expect(head.getAttribute('aria-sort')).toBe('ascending');
  });

  it('badges each frame of the navigator with its hits', async () => {
    const { root } = await render(timed());
    const badges = Array.from(pane(root, 'frames').querySelectorAll<HTMLElement>('.jp-DynamoExplorer-hits'));
    expect(badges.map(b => [b.closest<HTMLElement>('[data-compile-id]')!.dataset.compileId, b.textContent])).toEqual([
      ['0/0', '×5 hits'],
      ['1/0', '×4 hits'],
      ['2/0', '×1 hit']
    ]);
  });

  it('without a profile: one line on how to get one, no tables, no badges', async () => {
    const { root } = await render(golden('toy_example'));
    const el = pane(root, 'profile');
    expect(el.querySelector('[data-hint="profile"]')!.textContent).toBe(noProfileText(golden('toy_example')));
    expect(el.querySelectorAll('table')).toHaveLength(0);
    expect(el.querySelector('details')).toBeNull();
    expect(pane(root, 'frames').querySelector('.jp-DynamoExplorer-hits')).toBeNull();
  });

  it('with only an eager baseline: the speedup and the hint for --profile', async () => {
    const report = timed();
    report.profile = null;
    const { root } = await render(report);
    const el = pane(root, 'profile');
    expect(el.querySelector('[data-section="speedup"]')).not.toBeNull();
    expect(el.querySelector('[data-section="split"]')).toBeNull();
    expect(el.querySelector('[data-hint="profile"]')!.textContent).not.toContain('--compare-eager');
    expect(el.querySelector('[data-method="eager_baseline"]')).not.toBeNull();
  });

  it('when compiled is slower than eager, says the compile never pays back', async () => {
    const report = timed();
    Object.assign(report.eager_baseline!, { eager_ms: 3, compiled_ms: 4, speedup: 0.75 });
    const { root } = await render(report);
    const speedup = pane(root, 'profile').querySelector<HTMLElement>('[data-section="speedup"]')!;
    expect(speedup.dataset.verdict).toBe('not-faster');
    expect(speedup.querySelector('[data-runs]')!.textContent).toContain('never pays back');
  });

  it('on a GPU: device time and the kernels of each graph, the most time first', async () => {
    const report = timed();
    const g = report.profile!.graphs.find(x => x.graph_id === 1)!;
    g.device_ms = 3.5;
    g.kernels = [
      { name: 'triton_poi_fused_mul_0', calls: 4, device_ms: 0.5 },
      { name: 'triton_poi_fused_abs_add_div_1', calls: 4, device_ms: 3 }
    ];
    report.profile!.device = 'cuda';
    const { root } = await render(report);
    const table = pane(root, 'profile').querySelector<HTMLElement>('[data-section="graphs"]')!;
    const heads = Array.from(table.querySelectorAll('th'), th => th.textContent);
    expect(heads.slice(-2)).toEqual(['device', 'kernels']);
    const first = table.querySelector('tbody tr')!;
    expect(first.querySelectorAll('td')[heads.indexOf('device')].textContent).toBe('3.50 ms');
    expect(Array.from(first.querySelectorAll('[data-kernel]'), k => k.textContent)).toEqual([
      'triton_poi_fused_abs_add_div_1 · 4× · 3.00 ms',
      'triton_poi_fused_mul_0 · 4× · 0.50 ms'
    ]);
    expect(first.querySelector('summary')!.textContent).toBe('2 kernels');
    expect(table.querySelectorAll('tbody tr')[1].querySelectorAll('td')[heads.indexOf('kernels')].textContent).toBe(
      '–'
    );
    expect(pane(root, 'profile').textContent).toContain('(with CUDA kernel times)');
  });

  it("on a GPU: each graph's first call apart from the calls after it, and the device time no graph ran", async () => {
    const { root } = await render(onGpu());
    const el = pane(root, 'profile');
    const table = el.querySelector<HTMLElement>('[data-section="graphs"]')!;
    const heads = Array.from(table.querySelectorAll('th'), th => th.textContent);
    expect(heads.slice(-4)).toEqual(['first call', 'then', 'device', 'kernels']);
    const row = table.querySelector<HTMLElement>('tbody tr[data-graph-id="1"]')!;
    const cells = row.querySelectorAll('td');
    expect(cells[heads.indexOf('first call')].textContent).toBe('80.0 ms (70.0 ms compile)');
    expect(cells[heads.indexOf('first call')].querySelector<HTMLElement>('[data-first-call]')!.title).toContain(
      '4,900 kernels, 70.4 ms on the device'
    );
    expect(cells[heads.indexOf('then')].textContent).toBe('3× 3.00 ms');
    const once = table.querySelector<HTMLElement>('tbody tr[data-graph-id="2"]')!;
    expect(once.querySelectorAll('td')[heads.indexOf('then')].textContent).toBe('–');
    const device = el.querySelector<HTMLElement>('[data-section="device"]')!;
    expect(device.querySelector('[data-part="eager"]')!.textContent).toBe(
      'eager 0.02 ms (1 kernel launched outside any graph call)'
    );
    expect(device.querySelector('[data-part="compile"]')!.textContent).toContain('70.4 ms');
    expect(Array.from(device.querySelectorAll('[data-kernel]'), k => k.textContent)).toEqual([
      'normal_kernel · 1× · 0.02 ms'
    ]);
    // the CPU (the golden): no device section
    const cpu = await render(timed());
    expect(pane(cpu.root, 'profile').querySelector('[data-section="device"]')).toBeNull();
  });

  it("keeps the report's strings as text", async () => {
    const report = timed();
    report.frames[0].graph_breaks[0].gb_type = '<img src=x onerror="window.pwned=1">';
    report.eager_baseline!.functions[0].name = '<script>window.pwned=1</script>';
    const { root } = await render(report);
    const el = pane(root, 'profile');
    expect(el.querySelector('img, script')).toBeNull();
    expect(el.textContent).toContain('<img src=x onerror="window.pwned=1">');
    expect(el.textContent).toContain('<script>window.pwned=1</script>');
  });
});
