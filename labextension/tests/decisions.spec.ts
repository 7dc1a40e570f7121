/**
 * The inline / skip decisions pane (issue 13 item 1) on the `decisions` golden: a real run of a cell whose `f`
 * inlines `helper` (which inlines `helper2`), inlines `copy.deepcopy` by rule, skips `re.match` on constants,
 * puts the allow_in_graph `opaque` in the graph, breaks on a torch._dynamo.disable'd function, then breaks in its
 * resume function on networkx's skipped `pairwise`. Checks the tree (decisionsModel.ts) and the pane: badges,
 * rules, the filter, collapsing, the line jump and the link to the break.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { buildTree, calleeLabel, decisionCounts, readDecisions } from '../src/model/decisionsModel';
import { ReportIndex } from '../src/model/model';
import { DecisionsPane } from '../src/view/panes/decisions';
import { GraphBreaksPane } from '../src/view/panes/graphBreaks';
import type { Decision } from '../src/schema';
import { golden, pane, render, settled } from './helpers';

afterEach(() => {
  document.body.textContent = '';
});

/** The labels of a tree level. */
function labels(nodes: ReturnType<typeof buildTree>, report = golden('decisions')): string[] {
  const index = new ReportIndex(report);
  return nodes.map(n => calleeLabel(n.decision, report.frames[0], index));
}

describe('the decisions model', () => {
  it('rebuilds the call tree, hiding torch ops and builtins unless asked', () => {
    const report = golden('decisions');
    const decisions = readDecisions(report.frames[0]);
    const shown = buildTree(decisions, false);
    expect(labels(shown, report)).toEqual(['helper', 'copy.deepcopy', 're.match', 'opaque', 'disabled']);
    expect(labels(shown[0].children, report)).toEqual(['helper2']);
    expect(shown[1].children.length).toBeGreaterThan(0); // what deepcopy inlined, nested under it
    const all = buildTree(decisions, true);
    expect(labels(all, report)).toContain('len');
    const countAll = (nodes: ReturnType<typeof buildTree>): number =>
      nodes.reduce((n, node) => n + 1 + countAll(node.children), 0);
    expect(countAll(all)).toBe(decisions.length);
    expect(countAll(shown)).toBeLessThan(decisions.length);
  });

  it('counts the decisions of a frame, in the legend order', () => {
    const counts = new Map(decisionCounts(readDecisions(golden('decisions').frames[0])));
    expect(counts.get('inline')).toBeGreaterThanOrEqual(3);
    expect([counts.get('skip'), counts.get('disabled'), counts.get('allow_in_graph')]).toEqual([1, 1, 1]);
    expect([...counts.keys()].slice(0, 4)).toEqual(['inline', 'skip', 'disabled', 'allow_in_graph']);
  });

  it('reads no decisions from a report written before minor 7', () => {
    const frame = golden('toy_example').frames[0];
    delete (frame as { decisions?: Decision[] }).decisions;
    expect(readDecisions(frame)).toEqual([]);
    expect(buildTree([], false)).toEqual([]);
  });
});

describe('the decisions pane', () => {
  it('draws each call with its decision badge, its rule and its line', async () => {
    const { root } = await render(golden('decisions'));
    const el = pane(root, 'decisions');
    const row = (name: string): HTMLElement =>
      [...el.querySelectorAll<HTMLElement>('.jp-DynamoExplorer-decisionRow')].find(
        r => r.querySelector('.jp-DynamoExplorer-decisionCallee')!.textContent === name
      )!;
    expect(row('helper').dataset.decision).toBe('inline');
    expect(row('helper').querySelector('.jp-DynamoExplorer-decisionRule')!.textContent).toBe('inlined by default');
    expect(row('helper').querySelector('[data-jump]')!.textContent).toBe('line 27');
    expect(row('helper2').dataset.decision).toBe('inline'); // a user helper's callee starts open
    expect(row('re.match').dataset.decision).toBe('skip');
    expect(row('re.match').dataset.outcome).toBe('ok');
    expect(row('re.match').textContent).toContain('file is under skip directory');
    expect(row('opaque').dataset.decision).toBe('allow_in_graph');
    expect(row('disabled').dataset.decision).toBe('disabled');
    expect(row('disabled').dataset.outcome).toBe('graph_break');
    expect(el.querySelector('.jp-DynamoExplorer-decisionSummary')!.textContent).toContain('1 call broke the graph');
    // a library's inlined internals start closed
    const deepcopy = row('copy.deepcopy');
    expect(deepcopy.textContent).toContain('BUILTIN_INLINE_WHEN_CALLED');
    expect(deepcopy.querySelector('button')!.getAttribute('aria-expanded')).toBe('false');
    expect(deepcopy.parentElement!.querySelector('ul')).toBeNull();
  });

  it('opens a closed node, shows every call on demand, and jumps to a call line', async () => {
    const { root, widget } = await render(golden('decisions'));
    const el = pane(root, 'decisions');
    const view = widget.view!;
    const decisionsPane = view.panes.get('decisions') as DecisionsPane;
    const deepcopyItem = (): HTMLElement =>
      [...el.querySelectorAll<HTMLElement>('.jp-DynamoExplorer-decisionNode')].find(
        n => n.querySelector('.jp-DynamoExplorer-decisionCallee')!.textContent === 'copy.deepcopy'
      )!;
    deepcopyItem().querySelector<HTMLElement>('.jp-DynamoExplorer-treeToggle')!.click();
    await settled(root);
    expect(deepcopyItem().querySelector('ul [data-decision="inline"]')).not.toBeNull();
    expect(el.querySelector('[data-decision="builtin"]')).toBeNull();
    el.querySelector<HTMLElement>('[data-value="all"]')!.click();
    await settled(root);
    expect(decisionsPane.shown).toBe('all');
    expect(el.querySelector('[data-decision="builtin"]')).not.toBeNull();
    el.querySelector<HTMLElement>(
      '.jp-DynamoExplorer-decisionRow[data-decision="allow_in_graph"] [data-jump]'
    )!.click();
    await settled(root);
    expect(pane(root, 'source').querySelector('[data-line="30"]')!.classList.contains('jp-mod-selected')).toBe(true);
  });

  it('links a call that broke the graph to its break in the graph-breaks pane', async () => {
    const { root, widget } = await render(golden('decisions'));
    const view = widget.view!;
    await view.selectFrame('1/0');
    const el = pane(root, 'decisions');
    const pairwise = el.querySelector<HTMLElement>('.jp-DynamoExplorer-decisionRow[data-outcome="graph_break"]')!;
    expect(pairwise.querySelector('.jp-DynamoExplorer-decisionCallee')!.textContent).toBe(
      'networkx.utils.misc.pairwise'
    );
    pairwise.querySelector<HTMLElement>('.jp-DynamoExplorer-decisionBreak')!.click();
    await settled(root);
    const breaks = view.panes.get('graph-breaks') as GraphBreaksPane;
    expect(breaks.selected?.gb.gb_type).toBe('Attempted to call function marked as skipped');
    expect(root.querySelector<HTMLElement>('.jp-DynamoExplorer-frameTitle')!.dataset.compileId).toBe('1/0');
  });

  it('says so for a report written before decisions were recorded', async () => {
    const report = golden('toy_example');
    for (const frame of report.frames) {
      delete (frame as { decisions?: Decision[] }).decisions;
    }
    const { root } = await render(report);
    expect(pane(root, 'decisions').textContent).toContain('written before decisions were recorded');
  });

  it('names the option when the run did not record decisions (opt-in, --decisions)', async () => {
    const { root } = await render(golden('toy_example')); // frames[].decisions empty, options.decisions false
    expect(pane(root, 'decisions').textContent).toContain('%%dynamo --decisions');
  });
});
