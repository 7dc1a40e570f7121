/**
 * Complete recompile diagnosis (issue 12 item 4), on the golden reports: every failing guard of an old cache
 * entry with expected and actual (recompile_many: the dtype, an int and a flag all changed), the failed guards
 * marked among the entry's guards, the shape or int recompile tied to the automatic-dynamic decision it led to,
 * a specialised symbol in words, and the guard diff with its note when guards were cut.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  diffGuards,
  diffNote,
  dynamicDecisions,
  failedGuardsOf,
  failureHead,
  failureText,
  failureWhat,
  guardKey
} from '../src/model/guardsModel';
import { symbolText } from '../src/model/shapeText';
import { ReportIndex } from '../src/model/model';
import type { CompileReport, Frame } from '../src/schema';
import { golden, pane, render, settled } from './helpers';

afterEach(() => {
  document.body.textContent = '';
});

function frame(report: CompileReport, id: string): Frame {
  const found = report.frames.find(f => f.compile_id === id);
  if (!found) {
    throw new Error(`no frame [${id}]`);
  }
  return found;
}

async function select(root: HTMLElement, compileId: string): Promise<void> {
  pane(root, 'frames').querySelector<HTMLElement>(`[data-compile-id="${compileId}"]`)!.click();
  await settled(root);
}

describe('failures in words', () => {
  it('says what each failing guard expected and what the call brought', () => {
    const [reason] = frame(golden('recompile_many'), '0/1').recompile_reasons;
    expect(reason.failures!.map(failureText)).toEqual([
      "L['n']: expected 2, actual 3",
      "L['x'] dtype: expected torch.float32, actual torch.float64",
      "L['flag']: expected True, actual False"
    ]);
    expect(reason.failures!.map(failureWhat)).toEqual(["L['n'] == 2", 'dtype mismatch', "L['flag'] == True"]);
    // The value is named once: by the check when the check names it.
    expect(reason.failures!.map(failureHead)).toEqual([
      { source: '', what: "L['n'] == 2" },
      { source: "L['x']", what: 'dtype mismatch' },
      { source: '', what: "L['flag'] == True" }
    ]);
    const swapped = {
      ...reason.failures![0],
      guard_type: 'ID_MATCH',
      source: "G['act']",
      check: "___check_obj_id(G['act'], 1)",
      what: 'is another object'
    };
    expect(failureHead(swapped)).toEqual({ source: "G['act']", what: 'is another object' });
    expect(reason.failures!.filter(f => f.in_reason).map(f => f.source)).toEqual(["L['n']"]);
  });

  it("reads the engine's words (what, minor 15); a report before minor 15 gets the same words", () => {
    const failures = frame(golden('recompile_many'), '0/1').recompile_reasons[0].failures!;
    expect(failures.map(f => f.what)).toEqual(["L['n'] == 2", 'dtype mismatch', "L['flag'] == True"]);
    expect(failureWhat({ ...failures[1], what: 'as the engine says' })).toBe('as the engine says');
    const old = failures.map(f => ({ ...f, what: undefined }));
    expect(old.map(failureWhat)).toEqual(["L['n'] == 2", 'dtype mismatch', "L['flag'] == True"]);
    const base = { ...failures[0], what: undefined };
    expect(failureWhat({ ...base, guard_type: 'ID_MATCH' })).toBe('is another object');
    expect(failureWhat({ ...base, guard_type: 'TYPE_MATCH' })).toBe('has another type');
    expect(failureWhat({ ...base, guard_type: 'GLOBAL_STATE', property: 'grad_mode' })).toBe('grad_mode changed');
  });

  it('names a global-state field and a failure known only from Dynamo', () => {
    const base = frame(golden('recompile_many'), '0/1').recompile_reasons[0].failures![0];
    expect(
      failureText({
        ...base,
        guard_type: 'GLOBAL_STATE',
        source: '',
        property: 'grad_mode',
        expected: 'true',
        actual: 'false'
      })
    ).toBe('global state grad_mode: expected true, actual false');
    expect(failureText({ ...base, actual: null })).toBe("L['n']: expected 2");
  });
});

describe('failed guards of the old entry', () => {
  it("are every guard a failure names, not only the one of Dynamo's reason (recompile_many)", () => {
    const report = golden('recompile_many');
    const index = new ReportIndex(report);
    const second = frame(report, '0/1');
    const failed = [...failedGuardsOf(second, index.previousCompile(second))];
    expect(new Set(failed.map(g => g.source))).toEqual(new Set(["L['n']", "L['x']", "L['flag']"]));
    expect(failed.find(g => g.source === "L['x']")!.type).toBe('TENSOR_MATCH');
  });

  it('fall back to the reason text on a report without failures (older than minor 6)', () => {
    const report = golden('recompile_many');
    const second = frame(report, '0/1');
    for (const r of second.recompile_reasons) {
      delete r.failures;
      delete r.failures_note;
    }
    const failed = [...failedGuardsOf(second, frame(report, '0/0'))];
    expect(failed.map(g => g.source)).toEqual(["L['n']"]);
  });
});

describe('the automatic-dynamic decision a recompile led to', () => {
  it('ties a size mismatch to the dim Dynamo marked dynamic and the symbol it compiled with (dynamic_sizes)', () => {
    const report = golden('dynamic_sizes');
    const [decision] = dynamicDecisions(report, frame(report, '0/1'));
    const symbol = report.symbols.find(s => s.compile_id === '0/1')!;
    expect(decision.failure).toMatchObject({ guard_type: 'TENSOR_MATCH', property: 'size', source: "L['x']" });
    expect(decision.symbols).toEqual([symbol]);
    expect(decision.text).toBe(
      `after [0/0] → size mismatch on L['x'], Dynamo marked L['x'] dim 0 (size (?)) dynamic (was size (8)); [0/1] compiled with ${symbol.symbol} = L['x'].size()[0]`
    );
    expect(dynamicDecisions(report, frame(report, '0/0'))).toEqual([]);
  });

  it('ties an int that changed to its symbol (recompile_many)', () => {
    const report = golden('recompile_many');
    const [decision] = dynamicDecisions(report, frame(report, '0/1'));
    const symbol = report.symbols.find(s => s.compile_id === '0/1')!;
    expect(decision.text).toBe(
      `after [0/0] → L['n'] == 2 failed, Dynamo marked L['n'] (any value) dynamic (was 2); [0/1] compiled with ${symbol.symbol} = L['n']`
    );
  });

  it('is empty for a compile that marked nothing, even when it is symbolic (rerun_dynamic)', () => {
    const report = golden('rerun_dynamic');
    expect(report.frames.flatMap(f => dynamicDecisions(report, f))).toEqual([]);
  });
});

describe('a specialised symbol', () => {
  it('says to what, why and by which guard', () => {
    const [symbol] = golden('dynamic_sizes').symbols;
    expect(symbolText(symbol)).not.toContain('specialized');
    const pinned = {
      ...symbol,
      value: '3',
      range: '[3, 3]',
      specialized_to: '3',
      specialization_reason: 'range_refined_to_singleton',
      specialization_guard: "L['x'].size()[0] == 3"
    };
    expect(symbolText(pinned)).toBe(
      `${symbol.symbol} = L['x'].size()[0] = 3, [3, 3], specialized to 3 (range_refined_to_singleton: L['x'].size()[0] == 3)`
    );
  });
});

describe('guard diff', () => {
  it('shows every failed guard of recompile_many as changed', () => {
    const report = golden('recompile_many');
    const diff = diffGuards(frame(report, '0/0').guards, frame(report, '0/1').guards);
    const changed = new Set(diff.changed.map(c => guardKey(c.after)));
    for (const key of ["TENSOR_MATCH|L['x']"]) {
      expect(changed.has(key)).toBe(true);
    }
    expect(diffNote(report, frame(report, '0/0'), frame(report, '0/1'))).toBeNull();
  });

  it("says when a compile's guards were cut", () => {
    const report = golden('recompile_many');
    report.diagnostics.push({ kind: 'truncated', message: '[0/1] f: kept 5000 of 9000 guards', compile_id: '0/1' });
    expect(diffNote(report, frame(report, '0/0'), frame(report, '0/1'))).toBe(
      'incomplete: [0/1] f: kept 5000 of 9000 guards'
    );
  });
});

describe('guards pane', () => {
  it("lists every failing guard with expected and actual, Dynamo's one marked, and the decision", async () => {
    const report = golden('recompile_many');
    const { root } = await render(report);
    await select(root, '0/1');
    const guards = pane(root, 'guards');
    const reasons = guards.querySelector<HTMLElement>('[data-section="recompile-reasons"]')!;
    const summary = reasons.querySelector<HTMLElement>('details.jp-DynamoExplorer-recompileReason > summary')!;
    expect(summary.textContent).toBe('Recompiled: 3 guards of [0/0] failed for this call');
    expect(reasons.querySelector('pre')!.textContent).toMatch(/^Dynamo's reason: n == 2 /);
    const table = guards.querySelector<HTMLElement>('[data-section="guard-failures"]')!;
    expect(table.dataset.failedCompileId).toBe('0/0');
    const rows = Array.from(table.querySelectorAll<HTMLElement>('div.jp-DynamoExplorer-failure'));
    expect(rows.map(r => [r.dataset.type, r.dataset.source, r.dataset.property])).toEqual([
      ['EQUALS_MATCH', "L['n']", ''],
      ['TENSOR_MATCH', "L['x']", 'dtype'],
      ['TRUE_MATCH', "L['flag']", '']
    ]);
    const cells = (r: HTMLElement) => [
      r.querySelector('.jp-DynamoExplorer-failureWhat')!.textContent,
      r.querySelector('.jp-DynamoExplorer-expected')!.textContent,
      r.querySelector('.jp-DynamoExplorer-actual')!.textContent
    ];
    expect(rows.map(cells)).toEqual([
      ["L['n'] == 2", '2', '3'],
      ["L['x'] dtype mismatch", 'torch.float32', 'torch.float64'],
      ["L['flag'] == True", 'True', 'False']
    ]);
    expect(rows.map(r => r.classList.contains('jp-mod-reason'))).toEqual([true, false, false]);
    expect(rows.map(r => r.querySelector('.jp-DynamoExplorer-link')?.textContent)).toEqual([
      'line 4',
      'line 4',
      'line 5'
    ]);
    // The int's failure led automatic dynamic to mark it: said under that failure, with the symbol [0/1] got.
    const symbol = report.symbols.find(s => s.compile_id === '0/1')!.symbol;
    expect(rows.map(r => r.querySelector('[data-section="automatic-dynamic-decision"]')?.textContent ?? null)).toEqual([
      `→ Dynamo marked L['n'] (any value) dynamic (was 2); [0/1] compiled with ${symbol} = L['n']`,
      null,
      null
    ]);
    expect(guards.querySelector('[data-section="automatic-dynamic-decisions"]')).toBeNull();
    // The guard list leads with the inputs whose guards failed, as [0/1] guards them again (L['flag']'s TRUE_MATCH
    // is a FALSE_MATCH now; L['n'] is symbolic: its EQUALS_MATCH is gone, its TYPE_MATCH stays).
    const groups = Array.from(guards.querySelectorAll<HTMLElement>('.jp-DynamoExplorer-guardGroup'));
    const failedSources = groups.filter(g => g.dataset.tier === 'failed').map(g => g.dataset.source);
    expect(new Set(failedSources)).toEqual(new Set(["L['x']", "L['flag']", "L['n']"]));
    expect(groups.slice(0, 3).map(g => g.dataset.tier)).toEqual(['failed', 'failed', 'failed']);
  });

  it('says a decision with no failure to sit under as a line of its own (a report older than minor 6)', async () => {
    const report = golden('dynamic_sizes');
    for (const r of frame(report, '0/1').recompile_reasons) {
      delete r.failures;
      delete r.failures_note;
    }
    const { root } = await render(report);
    await select(root, '0/1');
    const list = pane(root, 'guards').querySelector<HTMLElement>('[data-section="automatic-dynamic-decisions"]')!;
    expect(list.textContent).toMatch(
      /^after \[0\/0\] → tensor 'x' size mismatch at index 0\. expected 8, actual 16, Dynamo marked L\['x'\] dim 0/
    );
  });

  it('says why a reason has no failures, and draws none for a report older than minor 6', async () => {
    const report = golden('recompile_many');
    const [reason] = frame(report, '0/1').recompile_reasons;
    reason.failures = [];
    reason.failures_note = "not evaluated: Dynamo gave this reason without calling the explorer's guard_fail_fn";
    const { root } = await render(report);
    await select(root, '0/1');
    const table = pane(root, 'guards').querySelector<HTMLElement>('[data-section="guard-failures"]')!;
    expect(table.querySelector('.jp-DynamoExplorer-failure')).toBeNull();
    expect(table.textContent).toContain('not evaluated');
    // With no failure to list, the summary is Dynamo's reason as before.
    expect(pane(root, 'guards').querySelector('[data-section="recompile-reasons"] summary')!.textContent).toBe(
      'Recompiled: a guard of [0/0] failed: n == 2'
    );
    document.body.textContent = '';
    delete reason.failures;
    delete reason.failures_note;
    const again = await render(report);
    await select(again.root, '0/1');
    expect(pane(again.root, 'guards').querySelector('[data-section="guard-failures"]')).toBeNull();
    expect(pane(again.root, 'guards').querySelector('[data-section="recompile-reasons"]')).not.toBeNull();
  });

  it('notes in the diff when guards were cut', async () => {
    const report = golden('recompile_many');
    report.diagnostics.push({ kind: 'truncated', message: '[0/1] f: kept 5000 of 9000 guards', compile_id: '0/1' });
    const { root } = await render(report);
    await select(root, '0/1');
    const diff = pane(root, 'guards').querySelector<HTMLElement>('[data-section="guard-diff"]')!;
    expect(diff.querySelector('[data-diff="note"]')!.textContent).toBe('incomplete: [0/1] f: kept 5000 of 9000 guards');
  });
});
