/**
 * Guards that lead with what matters (issue 11), on the golden reports: the order of a frame's guards (failed,
 * shape guards, inputs, modules, globals; the global state as one collapsed summary row), the recompile
 * timeline of a code object, the dynamic-shape symbols in the frame title, and no line link on a global-state
 * guard.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  diffGuards,
  globalStateFields,
  globalStateSummary,
  guardKey,
  guardTier,
  orderGuards,
  recompileTimeline,
  shortReason
} from '../src/model/guardsModel';
import { symbolText } from '../src/model/shapeText';
import { failedGuards, ReportIndex } from '../src/model/model';
import type { CompileReport, Frame } from '../src/schema';
import { golden, loadGoldens, pane, render, settled } from './helpers';

afterEach(() => {
  document.body.textContent = '';
});

const STATE_KINDS = ['GRAD_MODE', 'DEFAULT_DEVICE', 'GLOBAL_STATE', 'DETERMINISTIC_ALGORITHMS', 'TORCH_FUNCTION_STATE'];

function frame(report: CompileReport, id: string): Frame {
  const found = report.frames.find(f => f.compile_id === id);
  if (!found) {
    throw new Error(`no frame [${id}]`);
  }
  return found;
}

/** The order the pane uses for a frame of a report. */
function ordered(report: CompileReport, f: Frame) {
  const index = new ReportIndex(report);
  const previous = index.previousCompile(f);
  const failedKeys = new Set([...failedGuards(f, previous)].map(guardKey));
  const shapes = new Set(report.shape_guards.filter(s => s.compile_id === f.compile_id).map(s => s.expr));
  return { failedKeys, ...orderGuards(f.guards, failedKeys, shapes) };
}

async function select(root: HTMLElement, compileId: string): Promise<void> {
  pane(root, 'frames').querySelector<HTMLElement>(`[data-compile-id="${compileId}"]`)!.click();
  await settled(root);
}

describe('guard order', () => {
  for (const [name, report] of loadGoldens()) {
    for (const f of report.frames.filter(x => x.guards.length > 0)) {
      it(`${name} [${f.compile_id}]: every guard once, failed > shape > input > module > global, state apart`, () => {
        const { groups, state, failedKeys } = ordered(report, f);
        const shown = [...groups.flatMap(g => g.guards), ...state];
        expect(shown).toHaveLength(f.guards.length);
        expect(new Set(shown)).toEqual(new Set(f.guards));
        const ranks = groups.map(g =>
          ['failed', 'shape', 'input', 'module', 'global', 'other', 'state'].indexOf(g.tier)
        );
        expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
        for (const g of state) {
          expect(g.source).toBe('');
          expect(failedKeys.has(guardKey(g))).toBe(false);
        }
        for (const kind of STATE_KINDS) {
          const guard = f.guards.find(g => g.type === kind && g.source === '');
          if (guard && !failedKeys.has(guardKey(guard))) {
            expect(state).toContain(guard);
          }
        }
        // An input guard of the frame (L['x'], L['self']) comes before every global and module guard.
        const firstInput = groups.findIndex(g => g.tier === 'input');
        const firstOther = groups.findIndex(g => g.tier === 'global' || g.tier === 'module');
        if (firstInput >= 0 && firstOther >= 0) {
          expect(firstInput).toBeLessThan(firstOther);
        }
      });
    }
  }

  it("puts the toy_example's input tensors first and G['torch'] after them", () => {
    const report = golden('toy_example');
    const { groups, state } = ordered(report, frame(report, '0/0'));
    expect(groups.map(g => [g.tier, g.source])).toEqual([
      ['input', "L['a']"],
      ['input', "L['b']"],
      ['global', "G['torch']"],
      ['global', "G['torch'].abs"]
    ]);
    expect(groups[0].guards[0].type).toBe('TENSOR_MATCH');
    expect(state.map(g => g.type)).toEqual(
      expect.arrayContaining(['GLOBAL_STATE', 'DEFAULT_DEVICE', 'TORCH_FUNCTION_MODE_STACK'])
    );
  });

  it('leads a recompile with the failed input guard, then the shape guard (dynamic_sizes [0/1])', () => {
    const report = golden('dynamic_sizes');
    const { groups, state } = ordered(report, frame(report, '0/1'));
    expect(groups[0]).toMatchObject({ tier: 'failed', source: "L['x']" });
    expect(groups[0].guards[0].type).toBe('TENSOR_MATCH');
    expect(groups[1].tier).toBe('shape');
    expect(groups[1].guards.map(g => g.code)).toEqual([["2 <= L['x'].size()[0]"]]);
    expect(state.some(g => g.type === 'SHAPE_ENV')).toBe(false);
  });

  it('tells inputs from module internals', () => {
    const report = golden('earlier_cell');
    const tiers = new Map(frame(report, '0/0').guards.map(g => [g.source, guardTier(g)]));
    expect(tiers.get("L['self']")).toBe('input');
    expect(tiers.get("L['x']")).toBe('input');
    expect(tiers.get("L['self']._modules['lin']._parameters['weight']")).toBe('module');
    expect(tiers.get("G['__import_torch_dot_nn_dot_modules_dot_module']")).toBe('global');
    expect(tiers.get('')).toBe('state');
  });

  it('finds the failed guard of a recompile that Dynamo words with the plain local name', () => {
    const report = golden('list_append');
    const index = new ReportIndex(report);
    const third = frame(report, '0/2');
    const failed = [...failedGuards(third, index.previousCompile(third))];
    expect(failed.map(g => [g.type, g.source])).toEqual([['LENGTH_CHECK', "L['items']"]]);
    expect(failed[0].code).toContain("len(L['items']) == 1");
  });
});

describe('global-state summary', () => {
  it("reads 'global state: grad mode, default device, … (N)'", () => {
    const report = golden('toy_example');
    const { state } = ordered(report, frame(report, '0/0'));
    expect(state.length).toBeGreaterThanOrEqual(4);
    expect(globalStateSummary(state)).toBe(`global state: grad mode, default device, … (${state.length})`);
  });

  it("reads the GLOBAL_STATE blob's fields by Dynamo's names", () => {
    const report = golden('toy_example');
    const blob = frame(report, '0/0').guards.find(g => g.type === 'GLOBAL_STATE')!;
    const fields = new Map(globalStateFields(blob.code[0]));
    expect(fields.get('grad_mode')).toBe('true');
    expect(fields.has('default_dtype')).toBe(true);
    expect(globalStateFields("L['x'] == 3")).toBeNull();
  });
});

describe('recompile timeline', () => {
  it('lists the compiles of a code object with the failed guard on each arrow', () => {
    const report = golden('list_append');
    const timeline = recompileTimeline(new ReportIndex(report), frame(report, '0/2'))!;
    expect(timeline.frames.map(f => f.compile_id)).toEqual(['0/0', '0/1', '0/2', '0/3']);
    expect(timeline.steps.map(s => [s.from.compile_id, s.to.compile_id, s.short])).toEqual([
      ['0/0', '0/1', 'not items'],
      ['0/1', '0/2', 'len(items) == 1'],
      ['0/2', '0/3', 'len(items) == 2']
    ]);
    expect(timeline.steps[0].reason).toContain('User stack trace');
  });

  it('is null for a code object compiled once', () => {
    const report = golden('toy_example');
    const index = new ReportIndex(report);
    expect(report.frames.every(f => recompileTimeline(index, f) === null)).toBe(true);
  });

  it('shortens a reason to its check', () => {
    expect(shortReason("tensor 'x' dtype mismatch. expected Float, actual Double")).toBe(
      "tensor 'x' dtype mismatch. expected Float, actual Double"
    );
    expect(shortReason('len(items) == 1          # items.append(x)  # <cell>:4 in f\nUser stack trace:')).toBe(
      'len(items) == 1'
    );
  });

  it('is drawn at the top of the guards pane, and a click on an arrow or a chip selects that compile', async () => {
    const report = golden('list_append');
    const { root } = await render(report);
    await select(root, '0/1');
    const guards = pane(root, 'guards');
    const timeline = guards.querySelector<HTMLElement>('[data-section="recompile-timeline"]')!;
    expect(guards.querySelector('.jp-DynamoExplorer-paneBody')!.firstElementChild).toBe(timeline);
    const chips = timeline.querySelectorAll<HTMLElement>('.jp-DynamoExplorer-chip');
    expect(Array.from(chips, c => c.dataset.compileId)).toEqual(['0/0', '0/1', '0/2', '0/3']);
    expect(timeline.querySelector('[aria-current="true"]')!.getAttribute('data-compile-id')).toBe('0/1');
    const step = timeline.querySelector<HTMLElement>('.jp-DynamoExplorer-timelineStep[data-to="0/3"]')!;
    expect(step.textContent).toContain('len(items) == 2');
    step.click();
    await settled(root);
    expect(root.querySelector<HTMLElement>('.jp-DynamoExplorer-frameTitle')!.dataset.compileId).toBe('0/3');
    pane(root, 'guards')
      .querySelector<HTMLElement>('[data-section="recompile-timeline"] [data-compile-id="0/0"]')!
      .click();
    await settled(root);
    expect(root.querySelector<HTMLElement>('.jp-DynamoExplorer-frameTitle')!.dataset.compileId).toBe('0/0');
  });

  it('names the failed guard on the arrows of the frame navigator', async () => {
    const { root } = await render(golden('recompile_dtype'));
    const arrow = pane(root, 'frames').querySelector<HTMLElement>('.jp-DynamoExplorer-chainArrow')!;
    expect(arrow.title).toBe("recompiled: tensor 'x' dtype mismatch. expected Float, actual Double");
  });
});

describe('guards pane', () => {
  it('draws the input guards first and the global state as one collapsed row that expands', async () => {
    const report = golden('toy_example');
    const { root } = await render(report);
    await select(root, '0/0');
    const guards = pane(root, 'guards');
    const groups = guards.querySelectorAll<HTMLElement>('.jp-DynamoExplorer-guardGroup');
    expect(groups[0].dataset.source).toBe("L['a']");
    expect(groups[0].dataset.tier).toBe('input');
    expect(groups[0].querySelector<HTMLElement>('.jp-DynamoExplorer-guard')!.dataset.type).toBe('TENSOR_MATCH');
    const state = guards.querySelector<HTMLDetailsElement>('details.jp-DynamoExplorer-globalState')!;
    expect(groups[groups.length - 1]).toBe(state);
    expect(state.open).toBe(false);
    const count = frame(report, '0/0').guards.filter(g => g.source === '').length;
    expect(state.querySelector('summary')!.textContent).toBe(`global state: grad mode, default device, … (${count})`);
    expect(state.querySelectorAll('.jp-DynamoExplorer-guard')).toHaveLength(count);
    state.open = true;
    expect(state.querySelector('.jp-DynamoExplorer-stateFields')!.textContent).toContain('grad_mode=true');
  });

  for (const [name, report] of loadGoldens()) {
    it(`${name}: no global-state guard carries a line link`, async () => {
      const { root } = await render(report);
      for (const f of report.frames.filter(x => x.guards.length > 0)) {
        await select(root, f.compile_id);
        const state = pane(root, 'guards').querySelector('details.jp-DynamoExplorer-globalState');
        expect(state, `[${f.compile_id}]`).not.toBeNull();
        expect(state!.querySelectorAll('.jp-DynamoExplorer-link'), `[${f.compile_id}]`).toHaveLength(0);
      }
    });
  }

  it('opens a failed global-state guard on top instead of folding it away', async () => {
    const report = golden('recompile_dtype');
    const second = frame(report, '0/1');
    second.recompile_reasons = [{ failed_compile_id: '0/0', reason: 'utils_device.CURRENT_DEVICE == None' }];
    const { groups, state } = ordered(report, second);
    expect(groups[0]).toMatchObject({ tier: 'failed', source: '' });
    expect(groups[0].guards[0].type).toBe('DEFAULT_DEVICE');
    expect(state.some(g => g.type === 'DEFAULT_DEVICE')).toBe(false);
    expect(state.some(g => g.type === 'GLOBAL_STATE')).toBe(true);
  });
});

describe('guard diff', () => {
  it('shows a changed guard once, with only the checks that differ (recompile_dtype)', () => {
    const report = golden('recompile_dtype');
    const [first, second] = report.frames;
    const diff = diffGuards(first.guards, second.guards);
    expect(diff.changed.map(c => [c.after.type, c.after.source])).toEqual([['TENSOR_MATCH', "L['x']"]]);
    const [{ removed, added }] = diff.changed;
    expect(removed).toHaveLength(1);
    expect(added).toHaveLength(1);
    expect(removed[0]).toContain('torch.float32');
    expect(added[0]).toContain('torch.float64');
    expect(diff.unchanged + diff.changed.length + diff.added.length).toBe(second.guards.length);
    expect(diff.unchanged + diff.changed.length + diff.removed.length).toBe(first.guards.length);
  });

  it('keeps guards of one compile only as removed or added (list_append)', () => {
    const report = golden('list_append');
    const diff = diffGuards(frame(report, '0/0').guards, frame(report, '0/1').guards);
    expect(diff.changed.map(c => [c.after.source, c.removed, c.added])).toEqual([
      ["L['items']", ["not L['items']"], ["len(L['items']) == 1"]]
    ]);
    // the new element's tensor guard, its 'not marked' checks and its aliasing check: a leaf each
    expect(new Set(diff.added.map(g => g.source))).toEqual(new Set(["L['items'][0]"]));
    expect(diff.added.map(g => g.type)).toEqual(expect.arrayContaining(['TENSOR_MATCH', 'NO_TENSOR_ALIASING']));
    expect(diff.removed).toEqual([]);
  });

  it('is folded under a summary of its counts, the failed guard marked', async () => {
    const report = golden('recompile_dtype');
    const { root } = await render(report);
    await select(root, '0/1');
    const details = pane(root, 'guards').querySelector<HTMLDetailsElement>('[data-section="guard-diff"]')!;
    expect(details.open).toBe(false);
    expect(details.querySelector('summary')!.textContent).toMatch(
      /^Diff vs guards of \[0\/0\]: 1 changed, \d+ unchanged$/
    );
    const changed = details.querySelector<HTMLElement>('[data-diff="changed"]')!;
    expect(changed.textContent).toBe("~ TENSOR_MATCH L['x']");
    expect(changed.classList.contains('jp-mod-failed')).toBe(true);
    expect(details.querySelectorAll('[data-diff="removed"]')).toHaveLength(1);
    expect(details.querySelectorAll('[data-diff="added"]')).toHaveLength(1);
  });
});

describe('dynamic-shape symbols', () => {
  it('reads `symbol = source = value, range`', () => {
    const report = golden('dynamic_sizes');
    const [symbol] = report.symbols;
    expect(symbolText(symbol)).toBe(`${symbol.symbol} = L['x'].size()[0] = ${symbol.value}, [2, int_oo]`);
  });

  it('are in the frame title, not in the guards pane', async () => {
    const report = golden('dynamic_sizes');
    const { root } = await render(report);
    const symbolic = report.symbols[0].compile_id;
    await select(root, symbolic);
    const title = root.querySelector<HTMLElement>('.jp-DynamoExplorer-frameTitle')!;
    const row = title.querySelector<HTMLElement>('[data-section="symbols"]')!;
    expect(row.textContent).toContain(symbolText(report.symbols[0]));
    expect(row.querySelector('.jp-DynamoExplorer-link')!.textContent).toBe(`line ${report.symbols[0].line}`);
    expect(pane(root, 'guards').textContent).not.toContain(symbolText(report.symbols[0]));
    // The shape guard stays in the guards pane, near the top.
    const groups = pane(root, 'guards').querySelectorAll<HTMLElement>('.jp-DynamoExplorer-guardGroup');
    expect(Array.from(groups, g => g.dataset.tier).slice(0, 2)).toEqual(['failed', 'shape']);
    const static_ = report.frames.find(f => !report.symbols.some(s => s.compile_id === f.compile_id))!;
    await select(root, static_.compile_id);
    expect(title.querySelector('[data-section="symbols"]')).toBeNull();
  });
});
