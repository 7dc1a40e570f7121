/**
 * The bytecode panes on the real goldens: Dynamo's glue folded into labelled rows (bytecodeModel.findFolds),
 * the alignment of original and modified bytecode by source line (alignBlocks, spacerHeights), and the pane
 * in jsdom (fold rows that expand, links kept, rows linked to source lines, full arguments as tooltips);
 * then the view's layout: maximise and restore, splitters.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  alignBlocks,
  bytecodeItems,
  findFolds,
  foldSummary,
  itemLine,
  lineBlocks,
  spacerHeights,
  type IFold
} from '../src/model/bytecodeModel';
import type { Frame, Instruction } from '../src/schema';
import { golden, loadGoldens, pane, render, settled } from './helpers';

afterEach(() => {
  document.body.textContent = '';
});

/** Every frame of every golden that has modified bytecode, as [case, compile id, frame]. */
const FRAMES: Array<[string, string, Frame]> = loadGoldens().flatMap(([name, report]) =>
  report.frames.filter(f => f.modified_bytecode.length > 0).map(f => [name, f.compile_id, f] as [string, string, Frame])
);

/** The lines of a frame's graph breaks (the goldens' breaks are all in the frame's own code). */
function breakLines(frame: Frame): number[] {
  return frame.graph_breaks.flatMap(gb => (gb.line === null ? [] : [gb.line]));
}

const CALLS = ['CALL', 'CALL_KW', 'CALL_FUNCTION', 'CALL_FUNCTION_EX', 'CALL_METHOD'];

describe('findFolds on the goldens', () => {
  it('has frames to fold', () => {
    expect(FRAMES.length).toBeGreaterThan(10);
  });

  it.each(FRAMES)(
    '%s [%s]: folds tile the listing without crossing a jump, and keep every callee',
    (_n, _id, frame) => {
      const code = frame.modified_bytecode;
      const folds = findFolds(code, breakLines(frame));
      let previousEnd = 0;
      for (const fold of folds) {
        expect(fold.start).toBeGreaterThanOrEqual(previousEnd);
        expect(fold.end).toBeGreaterThan(fold.start);
        previousEnd = fold.end;
        const inside = code.slice(fold.start, fold.end);
        // only the first instruction may be a jump target; nothing inside jumps or returns
        expect(inside.slice(1).some(i => i.is_jump_target)).toBe(false);
        expect(inside.some(i => i.jump_target !== null || i.opname.startsWith('RETURN'))).toBe(false);
        // a line is never invented: the fold's line is one its instructions carry, or the frame's break line
        if (fold.line !== null) {
          expect([...inside.map(i => i.line), ...breakLines(frame)]).toContain(fold.line);
        }
      }
      // the items show every instruction exactly once
      const items = bytecodeItems(code, folds);
      const shown = items.flatMap(item =>
        item.kind === 'fold' ? range(item.fold.start, item.fold.end) : [item.index]
      );
      expect(shown).toEqual(range(0, code.length));
      // every compiled graph and resume function called is behind one labelled call row holding its call
      for (const [i, ins] of code.entries()) {
        if (ins.ref?.kind !== 'compiled_fn' && ins.ref?.kind !== 'resume') {
          continue;
        }
        const kind = ins.ref.kind === 'compiled_fn' ? 'graph-call' : 'resume-call';
        const fold = folds.find(f => f.start <= i && i < f.end)!;
        expect(fold, `${ins.opname} ${ins.argrepr}`).toBeDefined();
        expect(fold.kind).toBe(kind);
        expect(fold.ref).toEqual(ins.ref);
        expect(code.slice(i, fold.end).some(c => CALLS.includes(c.opname))).toBe(true);
      }
      // the glue is what folds: Dynamo's temporaries never show outside a fold
      for (const item of items) {
        if (item.kind === 'instruction') {
          expect(code[item.index].argrepr).not.toMatch(/^(tmp_\d+|graph_out_\d+)$/);
          expect(code[item.index].argrepr).not.toContain('record_pregraph_bytecode');
        }
      }
    }
  );

  it('folds the toy_example break frame into the rows that matter', () => {
    const report = golden('toy_example');
    const frame = report.frames.find(f => f.compile_id === '0/0')!;
    const code = frame.modified_bytecode;
    expect(code).toHaveLength(179);
    const folds = findFolds(code, breakLines(frame));
    const rows = bytecodeItems(code, folds).map(item =>
      item.kind === 'fold'
        ? `${item.fold.kind}${item.fold.ref ? ` ${item.fold.ref.compile_id ?? item.fold.ref.graph_id}` : ''}`
        : code[item.index].opname
    );
    expect(rows).toEqual([
      'RESUME',
      'graph-call 0',
      'restore',
      'POP_JUMP_FORWARD_IF_FALSE',
      'resume-call 1/0',
      'RETURN_VALUE',
      'resume-call 2/0',
      'RETURN_VALUE'
    ]);
    const graphCall = folds[0];
    expect(foldSummary(graphCall)).toBe('23 instructions · reads a, b');
    expect(code[graphCall.end - 1].argrepr).toBe('graph_out_0');
    // the graph call and the restore carry the def line, the resume calls the break's line (what Dynamo wrote)
    expect(folds.map(f => f.line)).toEqual([6, 6, 8, 8]);
    // the second resume call starts at the jump's target
    const target = code.find(i => i.offset === code.find(j => j.jump_target !== null)!.jump_target)!;
    expect(code[folds[3].start]).toBe(target);
  });

  it('leaves the break instruction of a call break visible (item_break: .item())', () => {
    const frame = golden('item_break').frames.find(f => f.compile_id === '0/0')!;
    const code = frame.modified_bytecode;
    const items = bytecodeItems(code, findFolds(code, breakLines(frame)));
    const plain = items.filter(i => i.kind === 'instruction').map(i => code[(i as { index: number }).index].opname);
    expect(plain).toEqual(['RESUME', 'PRECALL', 'CALL', 'RETURN_VALUE']);
  });

  it('names the stores a restore replays (cell_scope: the cell globals)', () => {
    const frame = golden('cell_scope').frames.find(f => f.compile_id === '0/0')!;
    const restore = findFolds(frame.modified_bytecode, breakLines(frame)).find(f => f.kind === 'restore')!;
    expect(restore.stores).toEqual(['y', 'x', 'torch']);
  });

  it('gives a resume call without lines the break line, and nothing when breaks disagree', () => {
    const frame = golden('toy_example').frames[0];
    const code: Instruction[] = frame.modified_bytecode.map(i => ({ ...i, line: null }));
    const resume = (lines: number[]): IFold[] => findFolds(code, lines).filter(f => f.kind === 'resume-call');
    expect(resume([8]).map(f => f.line)).toEqual([8, 8]);
    expect(resume([8, 8]).map(f => f.line)).toEqual([8, 8]);
    expect(resume([7, 8]).map(f => f.line)).toEqual([null, null]);
    expect(findFolds(code, [8]).find(f => f.kind === 'graph-call')!.line).toBeNull();
  });
});

describe('alignment by source line', () => {
  it('pairs the toy_example blocks by line and pads the shorter side', () => {
    const frame = golden('toy_example').frames[0];
    const original = lineBlocks(frame.original_bytecode.map(i => i.line));
    const code = frame.modified_bytecode;
    const items = bytecodeItems(code, findFolds(code, breakLines(frame)));
    const modified = lineBlocks(items.map(item => itemLine(code, item)));
    expect(original.map(b => b.line)).toEqual([6, 7, 8, 9, 10]);
    expect(modified.map(b => [b.line, b.end - b.start])).toEqual([
      [6, 3],
      [8, 5]
    ]);
    const pairs = alignBlocks(
      original.map(b => b.line),
      modified.map(b => b.line)
    );
    expect(pairs).toEqual([
      [0, 0],
      [2, 1]
    ]);
    // in rows: line 7 has no modified code (it is in the graph), so the modified line 8 moves down 8 rows
    // (line 7's 10 rows less the 2 extra rows of the modified line 6): line 8 starts at row 11 on both sides
    const spacers = spacerHeights(
      pairs,
      original.map(b => b.end - b.start),
      modified.map(b => b.end - b.start)
    );
    expect(spacers.a).toEqual([0, 0, 0, 0, 0]);
    expect(spacers.b).toEqual([0, 8]);
    const top = (heights: number[], pad: number[], k: number): number =>
      heights.slice(0, k).reduce((s, h) => s + h, 0) + pad.slice(0, k + 1).reduce((s, h) => s + h, 0);
    expect(top([1, 10, 7, 4, 4], spacers.a, 2)).toBe(top([3, 5], spacers.b, 1));
  });

  it('aligns every golden frame: paired blocks start together, whatever their heights', () => {
    for (const [, , frame] of FRAMES) {
      const code = frame.modified_bytecode;
      const a = lineBlocks(frame.original_bytecode.map(i => i.line));
      const items = bytecodeItems(code, findFolds(code, breakLines(frame)));
      const b = lineBlocks(items.map(item => itemLine(code, item)));
      const pairs = alignBlocks(
        a.map(x => x.line),
        b.map(x => x.line)
      );
      expect(pairs.length, frame.compile_id).toBeGreaterThan(0);
      const ha = a.map((_, k) => 1 + ((k * 7) % 5));
      const hb = b.map((_, k) => 2 + ((k * 3) % 4));
      const pad = spacerHeights(pairs, ha, hb);
      const top = (h: number[], p: number[], k: number): number =>
        h.slice(0, k).reduce((s, x) => s + x, 0) + p.slice(0, k + 1).reduce((s, x) => s + x, 0);
      for (const [i, j] of pairs) {
        expect(a[i].line).toBe(b[j].line);
        expect(top(ha, pad.a, i)).toBe(top(hb, pad.b, j));
      }
    }
  });

  it('finds the longest pairing, never pairs lineless blocks, and stays in order', () => {
    expect(alignBlocks([1, 2, 3, 2, 4], [2, 4])).toEqual([
      [1, 0],
      [4, 1]
    ]);
    expect(alignBlocks([null, 5], [null, 5])).toEqual([[1, 1]]);
    // a loop: line 3 twice in the original, once in the modified code
    expect(alignBlocks([3, 4, 3, 5], [3, 5])).toEqual([
      [0, 0],
      [3, 1]
    ]);
    expect(alignBlocks([], [1])).toEqual([]);
    // over the LCS limit: greedy, still in order and same-line
    const big = Array.from({ length: 3000 }, (_, i) => i % 50);
    const pairs = alignBlocks(big, big.slice(0, 2000));
    expect(pairs.length).toBe(2000);
    expect(pairs.every(([i, j]) => big[i] === big[j])).toBe(true);
  });
});

describe('the bytecode panes', () => {
  it('shows the toy_example glue folded, expands a fold on click, and keeps the graph and resume links', async () => {
    const report = golden('toy_example');
    const frame = report.frames[0];
    const { root } = await render(report);
    const modified = pane(root, 'modified-bytecode');
    const folds = modified.querySelectorAll<HTMLElement>('[data-fold]');
    expect(Array.from(folds, f => f.dataset.fold)).toEqual(['graph-call', 'restore', 'resume-call', 'resume-call']);
    // 4 plain rows + 4 folded rows instead of 179 rows
    expect(modified.querySelectorAll('.jp-DynamoExplorer-row:not(.jp-mod-inFold)')).toHaveLength(8);
    const graphCall = folds[0];
    expect(graphCall.textContent).toContain('call graph');
    expect(graphCall.querySelector('a[data-ref-kind="compiled_fn"][data-graph-id="0"]')!.textContent).toBe(
      '__compiled_fn_N_UUID → graph 0'
    );
    // what it runs: the graph's nodes come from lines 7 and 8 (the call itself carries the def line, 6)
    expect(graphCall.textContent).toContain('23 instructions · reads a, b · traces lines 7, 8');
    expect(
      modified.querySelector('[data-fold="resume-call"] a[data-ref-kind="resume"][data-compile-id="1/0"]')
    ).not.toBeNull();
    // expand: the 23 instructions appear under the row, linked by their own line
    const button = graphCall.querySelector<HTMLButtonElement>('button')!;
    expect(button.getAttribute('aria-expanded')).toBe('false');
    expect(graphCall.nextElementSibling!.querySelectorAll('[data-offset]')).toHaveLength(0);
    button.click();
    expect(button.getAttribute('aria-expanded')).toBe('true');
    const members = graphCall.nextElementSibling as HTMLElement;
    expect(members.hidden).toBe(false);
    const offsets = Array.from(members.querySelectorAll<HTMLElement>('[data-offset]'), r => Number(r.dataset.offset));
    expect(offsets).toEqual(frame.modified_bytecode.slice(1, 24).map(i => i.offset));
    expect(members.textContent).toContain('record_pregraph_bytecode_enter');
    button.click();
    expect(members.hidden).toBe(true);
    // the fold toggle shows every instruction again
    modified.querySelector<HTMLButtonElement>('[data-action="fold"]')!.click();
    await settled(root);
    expect(modified.querySelectorAll('[data-fold]')).toHaveLength(0);
    expect(modified.querySelectorAll('[data-offset]')).toHaveLength(179);
  });

  it('draws the instructions of a huge fold a page at a time', async () => {
    const report = golden('toy_example');
    const code = report.frames[0].modified_bytecode;
    // 4,000 more argument loads in the graph call, as a model with that many parameters has
    const at = code.findIndex(i => i.opname === 'LOAD_FAST' && i.argrepr === 'b');
    const loads = Array.from({ length: 4000 }, (_, k) => ({ ...code[at], offset: 100_000 + 2 * k }));
    code.splice(at + 1, 0, ...loads);
    const { root } = await render(report);
    const modified = pane(root, 'modified-bytecode');
    const graphCall = modified.querySelector<HTMLElement>('[data-fold="graph-call"]')!;
    expect(graphCall.textContent).toContain('4023 instructions');
    graphCall.querySelector('button')!.click();
    const members = graphCall.nextElementSibling as HTMLElement;
    expect(members.querySelectorAll('[data-offset]')).toHaveLength(1500);
    const more = (): HTMLButtonElement | null => members.querySelector<HTMLButtonElement>('.jp-DynamoExplorer-more');
    expect(more()!.textContent).toBe('show 1500 more of 2523 instructions');
    more()!.click();
    more()!.click();
    expect(more()).toBeNull();
    expect(members.querySelectorAll('[data-offset]')).toHaveLength(4023);
  });

  it('links modified rows and folds to source lines, as the original rows are', async () => {
    const report = golden('toy_example');
    const { root } = await render(report);
    const source = pane(root, 'source');
    const modified = pane(root, 'modified-bytecode');
    const resume = modified.querySelector<HTMLElement>('[data-fold="resume-call"]')!;
    resume.dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
    expect(source.querySelector('[data-line="8"]')!.classList.contains('jp-mod-linked')).toBe(true);
    expect(pane(root, 'original-bytecode').querySelectorAll('.jp-mod-linked').length).toBe(
      report.frames[0].original_bytecode.filter(i => i.line === 8).length
    );
    root.dispatchEvent(new MouseEvent('mouseleave'));
    source
      .querySelector('[data-line="6"] .jp-DynamoExplorer-lineCode')!
      .dispatchEvent(new MouseEvent('mouseover', { bubbles: true }));
    expect(Array.from(modified.querySelectorAll<HTMLElement>('.jp-mod-linked'), r => r.dataset.fold ?? 'row')).toEqual([
      'row',
      'graph-call',
      'restore'
    ]);
  });

  it('gives every argument its full text as a tooltip', async () => {
    const report = golden('toy_example');
    const { root } = await render(report);
    for (const name of ['original-bytecode', 'modified-bytecode']) {
      for (const row of pane(root, name).querySelectorAll<HTMLElement>('[data-offset]')) {
        const arg = row.querySelector<HTMLElement>('.jp-DynamoExplorer-argrepr')!;
        const ins = [...report.frames[0].original_bytecode, ...report.frames[0].modified_bytecode].find(
          i =>
            String(i.offset) === row.dataset.offset &&
            i.opname === row.querySelector('.jp-DynamoExplorer-opname')!.textContent
        )!;
        if (ins.argrepr) {
          expect(arg.title.startsWith(ins.argrepr)).toBe(true);
        }
      }
    }
  });
});

describe('the layout', () => {
  it('maximises any pane from its header and restores it with the button or Escape', async () => {
    const { root } = await render(golden('toy_example'));
    const panes = Array.from(root.querySelectorAll<HTMLElement>('.jp-DynamoExplorer-pane'));
    expect(panes.length).toBeGreaterThan(5);
    for (const el of panes) {
      expect(el.querySelectorAll('[data-action="maximise"]'), el.dataset.pane).toHaveLength(1);
    }
    const modified = pane(root, 'modified-bytecode');
    const button = modified.querySelector<HTMLButtonElement>('[data-action="maximise"]')!;
    button.click();
    expect(root.dataset.maximised).toBe('modified-bytecode');
    expect(root.dataset.maximisedIn).toBe('main');
    expect(modified.classList.contains('jp-mod-maximised')).toBe(true);
    expect(button.getAttribute('aria-pressed')).toBe('true');
    // another pane's button swaps the maximised pane
    pane(root, 'source').querySelector<HTMLButtonElement>('[data-action="maximise"]')!.click();
    expect(root.dataset.maximised).toBe('source');
    expect(modified.classList.contains('jp-mod-maximised')).toBe(false);
    modified.querySelector('button')!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    expect(root.dataset.maximised).toBeUndefined();
    expect(pane(root, 'source').classList.contains('jp-mod-maximised')).toBe(false);
    expect(document.activeElement).toBe(pane(root, 'source').querySelector('[data-action="maximise"]'));
    button.click();
    button.click();
    expect(root.dataset.maximised).toBeUndefined();
    // a link to a pane that is hidden restores the view: the graph link of a maximised modified bytecode
    button.click();
    modified.querySelector<HTMLElement>('a[data-ref-kind="compiled_fn"]')!.click();
    await settled(root);
    expect(root.dataset.maximised).toBeUndefined();
  });

  it('puts a splitter between side-by-side panes and a height handle under each row', async () => {
    const { root } = await render(golden('toy_example'));
    const code = root.querySelector<HTMLElement>('[data-row="code"]')!;
    const splitters = code.querySelectorAll<HTMLElement>(':scope > .jp-DynamoExplorer-splitter');
    expect(Array.from(splitters, s => s.dataset.after)).toEqual(['source', 'original-bytecode']);
    for (const s of splitters) {
      expect(s.getAttribute('role')).toBe('separator');
      expect(s.getAttribute('aria-orientation')).toBe('vertical');
      expect(s.tabIndex).toBe(0);
      expect((s.previousElementSibling as HTMLElement).dataset.pane).toBe(s.dataset.after);
    }
    const checks = root.querySelector<HTMLElement>('[data-row="checks"]')!;
    expect(checks.querySelectorAll(':scope > .jp-DynamoExplorer-splitter')).toHaveLength(1);
    for (const row of [code, checks]) {
      const handle = row.nextElementSibling as HTMLElement;
      expect(handle.classList.contains('jp-DynamoExplorer-heightHandle')).toBe(true);
      expect(handle.getAttribute('aria-orientation')).toBe('horizontal');
      handle.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown', bubbles: true }));
      expect(row.classList.contains('jp-mod-sized')).toBe(true);
      expect(row.style.getPropertyValue('--jp-DynamoExplorer-pane-height')).toMatch(/^\d+px$/);
      handle.dispatchEvent(new MouseEvent('dblclick', { bubbles: true }));
      expect(row.classList.contains('jp-mod-sized')).toBe(false);
    }
  });
});

function range(start: number, end: number): number[] {
  return Array.from({ length: end - start }, (_, i) => start + i);
}
