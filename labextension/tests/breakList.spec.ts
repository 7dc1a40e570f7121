/**
 * The graph-break action list (breakList.ts) and its pane: one row per distinct break across all frames and
 * compiles, most costly first (eager time, then times run, then compiles met), the words of each row, and a
 * click that opens the break (its frame selected, its source line highlighted, its card selected).
 *
 * The fixture is the toy_example golden made to hold the cases a real run has: the frame [0/0] recompiled
 * as [0/1] (the same break met by two compiles: one row) and a second break in the resume function [1/0].
 * `profileWith` makes a `report.profile` of the shape `--profile` writes (schema minor 6).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { buildBreakList, costText, formatMs, readProfile, rowSummary, userLine } from '../src/model/breakList';
import { ReportIndex } from '../src/model/model';
import { GraphBreaksPane } from '../src/view/panes/graphBreaks';
import type { CompileReport, EntryProfile, GraphBreak, Profile } from '../src/schema';
import { golden, pane, render, settled } from './helpers';

afterEach(() => {
  document.body.textContent = '';
});

/** The explicit break a `torch._dynamo.graph_break()` call makes, on line 9 of the toy cell (in [1/0]). */
const EXPLICIT: GraphBreak = {
  gb_id: 'GB0025',
  gb_type: 'Call to `torch._dynamo.graph_break()`',
  reason: 'Call to `torch._dynamo.graph_break()`\n  Explanation: User-inserted graph break.',
  explanation: 'User-inserted graph break. Message: None',
  hints: ['Remove the `torch._dynamo.graph_break()` call.'],
  doc_url: 'https://meta-pytorch.github.io/compile-graph-break-site/gb/gb0025.html',
  context: null,
  filename: '<cell>',
  line: 9,
  user_stack: []
};

/** toy_example with [0/0] recompiled as [0/1] (same break) and an explicit break in [1/0]. */
function twoBreaks(profile?: Profile): CompileReport {
  const report = golden('toy_example');
  const first = report.frames[0];
  const again = structuredClone(first);
  again.compile_id = '0/1';
  again.recompile_reasons = [
    { failed_compile_id: '0/0', reason: "tensor 'a' dtype mismatch. expected Float, actual Double" }
  ];
  report.frames.push(again);
  report.frames[1].graph_breaks.push(structuredClone(EXPLICIT));
  if (profile) {
    report.profile = profile;
  }
  return report;
}

/** A cache entry that ran `hits` times, `eager` ms of it outside its graphs. */
function entry(compileId: string, hits: number, eager: number, ops: number): EntryProfile {
  const graph = hits * 0.1;
  return {
    compile_id: compileId,
    hits,
    total_ms: graph + eager,
    self_ms: graph + eager,
    graph_ms: graph,
    eager_ms: eager,
    eager_ops: ops,
    cache_lookup_ms: hits * 0.01
  };
}

/** [0/0] ran once, [0/1] 99 times, [1/0] 100 times; each break's eager time after it. */
function profileWith(explicitMs: number): Profile {
  const entries = [entry('0/0', 1, 0.5, 4), entry('0/1', 99, 39.5, 396), entry('1/0', 100, explicitMs, 300)];
  const graphMs = entries.reduce((t, e) => t + e.graph_ms, 0);
  const eagerMs = 0.5 + 39.5 + explicitMs + 5 + 1;
  return {
    method: 'torch.profiler, as the cell ran',
    device: 'cpu',
    wall_ms: graphMs + eagerMs + 100,
    compiled_ms: graphMs,
    eager_ms: eagerMs,
    compile_ms: 100,
    cache_lookup_ms: 2,
    cache_lookups: 200,
    graphs: [],
    entries,
    eager: [
      { cause: 'graph_break', compile_id: '0/1', break_index: 0, calls: 99, ms: 39.5, ops: 396 },
      { cause: 'graph_break', compile_id: '1/0', break_index: 0, calls: 100, ms: explicitMs, ops: 300 },
      { cause: 'outside', compile_id: null, break_index: null, calls: 1, ms: 5, ops: 12 },
      { cause: 'frame', compile_id: '2/0', break_index: null, calls: 3, ms: 1, ops: 3 },
      { cause: 'graph_break', compile_id: '0/0', break_index: 0, calls: 1, ms: 0.5, ops: 4 }
    ],
    coverage: {
      unique_graphs: 3,
      graph_calls: 200,
      captured_ops: 800,
      total_ops: 1500,
      pct_ops: 800 / 1500,
      pct_time: 0.5,
      frames: []
    },
    backward: { compiled_calls: 0, compiled_ms: 0, eager_nodes: 0, eager_ms: 0 }
  };
}

describe('the action list', () => {
  it('is one row per distinct break across every frame and compile', () => {
    const report = twoBreaks();
    const rows = buildBreakList(report, new ReportIndex(report));
    expect(rows).toHaveLength(2);
    const [branch, explicit] = rows;
    expect(branch.gb.gb_type).toBe('Data-dependent branching');
    expect(branch.occurrences.map(o => [o.frame.compile_id, o.index])).toEqual([
      ['0/0', 0],
      ['0/1', 0]
    ]);
    expect(branch.frames.map(f => f.compile_id)).toEqual(['0/0', '0/1']);
    expect(branch.dataDependent).toBe(true);
    expect(branch.cellLine).toBe(8);
    expect(explicit.frames.map(f => f.compile_id)).toEqual(['1/0']);
    expect(explicit.occurrences[0].index).toBe(0);
    // no profile: nothing about runs or eager time is claimed
    expect(readProfile(report)).toBeNull();
    expect(rows.every(r => r.ran === null && r.eager === null)).toBe(true);
  });

  it('puts the break met by more compiles first without a profile', () => {
    const report = twoBreaks();
    report.frames.splice(3, 1); // no recompile: both met once, first-met order
    const once = buildBreakList(report, new ReportIndex(report));
    expect(once.map(r => r.gb.line)).toEqual([8, 9]);
    const moved = twoBreaks();
    // the explicit break met first in compile order, the branch by two compiles: the branch still leads
    moved.frames.unshift(moved.frames.splice(1, 1)[0]);
    expect(buildBreakList(moved, new ReportIndex(moved)).map(r => r.gb.line)).toEqual([8, 9]);
  });

  it('counts the runs of each break from its frames’ cache entries and sums its eager cost', () => {
    const report = twoBreaks(profileWith(10));
    const [branch, explicit] = buildBreakList(report, new ReportIndex(report));
    expect(branch.ran).toBe(100); // [0/0] once + [0/1] 99 times
    expect(branch.eager).toEqual({ ms: 40, ops: 400, calls: 100 });
    expect(explicit.ran).toBe(100);
    expect(explicit.eager).toEqual({ ms: 10, ops: 300, calls: 100 });
  });

  it('puts the break with the most eager time first, whatever else', () => {
    const report = twoBreaks(profileWith(250));
    const rows = buildBreakList(report, new ReportIndex(report));
    expect(rows.map(r => r.gb.line)).toEqual([9, 8]);
    expect(rows[0].frames).toHaveLength(1); // fewer compiles, but it costs more
    // equal eager time: the one that ran more leads
    const tie = twoBreaks(profileWith(40));
    readProfile(tie)!.entries[2].hits = 500;
    expect(buildBreakList(tie, new ReportIndex(tie)).map(r => r.gb.line)).toEqual([9, 8]);
  });

  it('words each row: compiles, runs and eager time, only what is known', () => {
    const plain = twoBreaks();
    const [row] = buildBreakList(plain, new ReportIndex(plain));
    expect(costText(row)).toEqual(['2 compiles']);
    expect(rowSummary(row)).toBe('Data-dependent branching at line 8: 2 compiles');
    const profiled = twoBreaks(profileWith(10));
    const [first, second] = buildBreakList(profiled, new ReportIndex(profiled));
    expect(costText(first)).toEqual(['2 compiles', 'ran 100×', '40.0 ms eager (400 ATen ops)']);
    expect(rowSummary(second)).toBe(
      'Call to `torch._dynamo.graph_break()` at line 9: 1 compile, ran 100×, 10.0 ms eager (300 ATen ops)'
    );
    expect([0.4234, 12.34, 845.2, 1234].map(formatMs)).toEqual(['0.42 ms', '12.3 ms', '845 ms', '1.23 s']);
  });

  it("names the cell's lines as IPython does when the cell has a label", () => {
    const report = twoBreaks();
    report.sources = [{ filename: '<cell>', label: 'In [3]', kind: 'cell', excerpts: [] }];
    const index = new ReportIndex(report);
    expect(buildBreakList(report, index)[0].where).toBe('In [3], line 8');
    expect(userLine(index, null, 4)).toBe('In [3], line 4');
    expect(userLine(index, '<cell>', null)).toBeNull();
    const earlier = golden('earlier_cell');
    const [row] = buildBreakList(earlier, new ReportIndex(earlier));
    expect(row.where).toBe(`In [1], line ${row.gb.line}`);
    // the break is in the earlier cell: it marks the line of this cell whose call led to it
    const call = row.gb.user_stack.filter(s => s.filename === earlier.cell.filename).pop()!;
    expect(row.cellLine).toBe(call.line);
  });

  it('reads a report without a profile, or with a partial one, without failing', () => {
    // an older or partial profile: no entries, an eager gap without its numbers
    const partial = { entries: null, eager: [{ cause: 'graph_break', compile_id: '1/0', break_index: 0 }] };
    const report = twoBreaks(partial as unknown as Profile);
    const rows = buildBreakList(report, new ReportIndex(report));
    expect(rows.map(r => r.gb.line)).toEqual([9, 8]); // 0 ms attributed still beats none
    expect(rows[0].eager).toEqual({ ms: 0, ops: 0, calls: 0 });
    expect(rows.every(r => r.ran === null)).toBe(true);
  });
});

describe('the graph-breaks pane', () => {
  it('draws the rows in order with their cost, reason and remedy', async () => {
    const report = twoBreaks(profileWith(250));
    const { root } = await render(report);
    const breaks = pane(root, 'graph-breaks');
    expect(breaks.querySelector('.jp-DynamoExplorer-paneTitleText')!.textContent).toBe(
      'Graph breaks (2 unique, 3 total, most eager time first)'
    );
    const cards = Array.from(breaks.querySelectorAll<HTMLElement>('.jp-DynamoExplorer-break'));
    expect(cards.map(c => c.dataset.rank)).toEqual(['1', '2']);
    expect(cards.map(c => c.dataset.count)).toEqual(['1', '2']);
    expect(cards[0].querySelector('.jp-DynamoExplorer-breakType')!.textContent).toBe(
      'GB0025 Call to `torch._dynamo.graph_break()`'
    );
    const badges = (card: HTMLElement): string[] =>
      Array.from(card.querySelectorAll('.jp-DynamoExplorer-breakCost .jp-DynamoExplorer-badge'), b => b.textContent!);
    expect(badges(cards[0])).toEqual(['1 compile', 'ran 100×', '250 ms eager (300 ATen ops)']);
    expect(badges(cards[1])).toEqual(['2 compiles', 'ran 100×', '40.0 ms eager (400 ATen ops)']);
    expect(cards[1].textContent).toContain('in [0/0] [0/1]');
    expect(cards[0].querySelector('.jp-DynamoExplorer-hints')!.textContent).toBe(EXPLICIT.hints[0]);
    expect(cards[0].querySelector('a')!.getAttribute('href')).toBe(EXPLICIT.doc_url);
    expect(cards[1].querySelector('.jp-DynamoExplorer-breakExplanation')!.textContent).toContain('data-dependent');
  });

  it('opens a break from its location: its frame, its source line, its card', async () => {
    const { root, widget } = await render(twoBreaks());
    const breaks = pane(root, 'graph-breaks');
    const explicit = breaks.querySelector<HTMLElement>('.jp-DynamoExplorer-break[data-rank="2"]')!;
    explicit.querySelector<HTMLElement>('[data-jump="9"]')!.click();
    await settled(root);
    expect(root.querySelector<HTMLElement>('.jp-DynamoExplorer-frameTitle')!.dataset.compileId).toBe('1/0');
    expect(pane(root, 'source').querySelector('[data-line="9"]')!.classList.contains('jp-mod-selected')).toBe(true);
    expect(explicit.classList.contains('jp-mod-selected')).toBe(true);
    expect(explicit.getAttribute('aria-current')).toBe('true');
    const view = widget.view!;
    const gb = view.panes.get('graph-breaks') as GraphBreaksPane;
    expect(gb.selected?.gb.line).toBe(9);
    // the branch, met by [0/0] and [0/1]: opened on the frame shown when it is one of them
    await view.selectFrame('0/1');
    breaks.querySelector<HTMLElement>('[data-jump="8"]')!.click();
    await settled(root);
    expect(root.querySelector<HTMLElement>('.jp-DynamoExplorer-frameTitle')!.dataset.compileId).toBe('0/1');
    expect(explicit.classList.contains('jp-mod-selected')).toBe(false);
    expect(breaks.querySelector('[data-rank="1"]')!.classList.contains('jp-mod-selected')).toBe(true);
    // a click anywhere on a card's head opens it too
    explicit.querySelector<HTMLElement>('.jp-DynamoExplorer-breakType')!.click();
    await settled(root);
    expect(explicit.classList.contains('jp-mod-selected')).toBe(true);
    expect(root.querySelector<HTMLElement>('.jp-DynamoExplorer-frameTitle')!.dataset.compileId).toBe('1/0');
  });
});
