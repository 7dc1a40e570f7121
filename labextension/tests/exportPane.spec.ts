/**
 * The Export pane (torch.export calls, report.exports, minor 21; view/panes/export.ts), drawn from the golden
 * `exports` (a real run on the CPU: a non-strict export failing on a data-dependent branch, a dynamic export with a
 * parameter and a buffer, a draft_export that assumed a branch).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NO_EXPORT } from '../src/view/panes/export';
import { golden, pane, render, settled } from './helpers';

afterEach(() => {
  document.body.textContent = '';
});

describe('the Export pane', () => {
  it("shows every export call of a run without frames, each in the engine's words", async () => {
    const { root } = await render(golden('exports'));
    await settled(root);
    const exports = pane(root, 'export');
    const calls = [...exports.querySelectorAll<HTMLElement>('.jp-DynamoExplorer-exportCall')];
    expect(calls.map(c => c.dataset.mode)).toEqual(['non_strict', 'non_strict', 'draft']);
    expect(calls.map(c => c.querySelector('[data-outcome]')!.textContent)).toEqual(['failed', 'exported', 'exported']);
    expect(calls[0].querySelector('.jp-DynamoExplorer-exportSummary')!.textContent).toBe(
      'export Gate (non-strict, line 31) failed at line 7: a guard on a data-dependent value (GuardOnDataDependentSymNode)'
    );
    expect(exports.querySelector('.jp-DynamoExplorer-toolbar .jp-DynamoExplorer-meta')!.textContent).toBe(
      '3 calls · 1 failed'
    );
  });

  it("gives a failure's kind, the user's line and its code, and what helps", async () => {
    const { root } = await render(golden('exports'));
    await settled(root);
    const failed = pane(root, 'export').querySelector<HTMLElement>('.jp-DynamoExplorer-exportCall[data-index="0"]')!;
    const what = failed.querySelector<HTMLElement>('.jp-DynamoExplorer-exportFailure')!;
    expect(what.dataset.kind).toBe('data_dependent');
    expect(what.querySelector('code')!.textContent).toBe('if x.sum() > 0:');
    expect(failed.querySelector('.jp-DynamoExplorer-exportFixes')!.textContent).toContain('torch.cond');
    expect(what.querySelector('[data-line="7"]')!.textContent).toBe('line 7');
  });

  it("shows the cell in the source pane without a frame, the failure's line marked, the line button there", async () => {
    const { root } = await render(golden('exports'));
    await settled(root);
    const source = pane(root, 'source');
    const marked = source.querySelector<HTMLElement>('.jp-DynamoExplorer-row[data-line="7"]')!;
    expect(marked.textContent).toContain('if x.sum() > 0:');
    const mark = marked.querySelector<HTMLElement>('[data-mark="export"]')!;
    expect(mark.title).toBe(
      'torch.export.export failed: GuardOnDataDependentSymNode: a guard on a data-dependent value'
    );
    expect(source.querySelectorAll('[data-mark]')).toHaveLength(1);
    const failed = pane(root, 'export').querySelector<HTMLElement>('.jp-DynamoExplorer-exportFailure')!;
    failed.querySelector<HTMLButtonElement>('button[data-line="7"]')!.click();
    await settled(root);
    expect(marked.classList.contains('jp-mod-selected')).toBe(true);
  });

  it("lays out an exported program's signature and ranges, and draft_export's assumptions", async () => {
    const { root } = await render(golden('exports'));
    await settled(root);
    const exports = pane(root, 'export');
    const rows = (sel: string) =>
      [...exports.querySelectorAll(`${sel} tbody tr`)].map(tr => [...tr.children].map(td => td.textContent));
    expect(
      rows('.jp-DynamoExplorer-exportCall[data-index="1"] .jp-DynamoExplorer-exportSignature').slice(0, 3)
    ).toEqual([
      ['input', 'PARAMETER', 'p_w', 'w'],
      ['input', 'BUFFER', 'b_n', 'n'],
      ['input', 'USER_INPUT', 'x', '']
    ]);
    expect(rows('.jp-DynamoExplorer-exportCall[data-index="1"] .jp-DynamoExplorer-exportRanges')).toEqual([
      ['s77', 'batch', 'x.shape[0]', '2', '64']
    ]);
    expect(rows('.jp-DynamoExplorer-exportDraft')).toEqual([
      ['DATA_DEPENDENT_ERROR', 'line 25', 'if n.item() > 2:', 'u0 > 2', 'True']
    ]);
  });

  it('lists what an exported program checks of its inputs when called', async () => {
    const { root } = await render(golden('exports'));
    await settled(root);
    const rows = [
      ...pane(root, 'export').querySelectorAll(
        '.jp-DynamoExplorer-exportCall[data-index="1"] .jp-DynamoExplorer-exportChecks tbody tr'
      )
    ].map(tr => [...tr.children].map(td => td.textContent));
    expect(rows).toEqual([
      ['range', 'x', '2 <= x.shape[0] <= 64'],
      ['static', 'x', 'x.shape[1] == 8']
    ]);
  });

  it('draws the exported graphs in the FX graph pane, with no frame, and from the Export pane', async () => {
    const { root } = await render(golden('exports'));
    await settled(root);
    const fx = pane(root, 'fx-graph');
    const buttons = () => [...fx.querySelectorAll<HTMLButtonElement>('.jp-DynamoExplorer-graphButtons button')];
    expect(buttons().map(b => b.textContent)).toEqual(['export Scale', 'export Pick']);
    expect(buttons()[0].getAttribute('aria-pressed')).toBe('true');
    expect(fx.querySelector('.jp-DynamoExplorer-graphInfo')!.textContent).toContain(
      'exported program of Scale (torch.export): no compile, no frame'
    );
    const pick = pane(root, 'export').querySelector<HTMLElement>('.jp-DynamoExplorer-exportCall[data-index="2"]')!;
    const draw = pick.querySelector<HTMLButtonElement>('button[data-graph-id]')!;
    expect(draw.textContent).toBe('draw the exported graph (9 nodes)');
    draw.click();
    await settled(root);
    expect(buttons()[1].getAttribute('aria-pressed')).toBe('true');
    expect(fx.querySelector('.jp-DynamoExplorer-graphInfo')!.textContent).toContain('exported program of Pick');
    expect(
      pane(root, 'export').querySelector('.jp-DynamoExplorer-exportCall[data-index="0"] button[data-graph-id]')
    ).toBeNull();
  });

  it('links a strict export to the frame Dynamo traced and a failed call to its fixes, and back (minor 23)', async () => {
    const { root, widget } = await render(golden('exports_strict'));
    const view = widget.view!;
    await settled(root);
    const exports = pane(root, 'export');
    const [gate, scale] = [...exports.querySelectorAll<HTMLElement>('.jp-DynamoExplorer-exportCall')];
    expect(gate.dataset.mode).toBe('strict');
    const frames = [...exports.querySelectorAll<HTMLButtonElement>('.jp-DynamoExplorer-exportFrames button')];
    expect(frames.map(b => b.textContent)).toEqual(['[0/0]', '[0/0@1]']);
    expect(scale.querySelector('.jp-DynamoExplorer-exportFrames')!.textContent).toBe(
      'strict mode: Dynamo traced the module as frame [0/0@1]'
    );
    frames[1].click();
    await vi.waitFor(() => expect(view.frame?.compile_id).toBe('0/0@1'));
    frames[0].click();
    await vi.waitFor(() => expect(view.frame?.compile_id).toBe('0/0'));

    const tries = [...gate.querySelectorAll<HTMLButtonElement>('.jp-DynamoExplorer-exportTries button')];
    expect(tries.map(b => b.dataset.fix)).toEqual(['cond', 'export_draft:0']);
    expect(scale.querySelector('.jp-DynamoExplorer-exportTries')).toBeNull();
    tries[1].click();
    const card = pane(root, 'try-fix').querySelector<HTMLElement>('[data-fix="export_draft:0"]')!;
    expect(card.classList.contains('jp-mod-flash')).toBe(true);
    const target = card.querySelector<HTMLButtonElement>('button[data-target-kind="export"]')!;
    expect(target.textContent).toBe('failed export Gate (line 24) at line 7: a guard on a data-dependent value');
    target.click(); // the pane drew its calls anew for the frame shown: the call as it is now
    const shown = () => exports.querySelector<HTMLElement>('.jp-DynamoExplorer-exportCall[data-index="0"]')!;
    await vi.waitFor(() => expect(shown().classList.contains('jp-mod-flash')).toBe(true));
  });

  it('says so when the run made no export call', async () => {
    const { root } = await render(golden('toy_example'));
    expect(pane(root, 'export').querySelector('.jp-DynamoExplorer-empty')!.textContent).toBe(NO_EXPORT);
  });
});
