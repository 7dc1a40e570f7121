/**
 * The Numerics pane and the header's banner (`--check-numerics`, report.numerics, minor 19; view/panes/numerics.ts,
 * model/numericsModel.ts), drawn from the golden `numerics` (a real inductor run on the CPU: a planted post-grad
 * pass worse than eager, bfloat16 no worse than eager, dropout not compared, a plain graph matching).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { checksOf, formatError, numericsOf, worseChecks } from '../src/model/numericsModel';
import { NOT_CHECKED } from '../src/view/panes/numerics';
import { golden, pane, render, settled } from './helpers';

afterEach(() => {
  document.body.textContent = '';
});

describe('the Numerics pane', () => {
  it("shows the frame's checked call: its verdict, the engine's line, and each output's numbers", async () => {
    const { widget, root } = await render(golden('numerics'));
    await widget.view!.selectFrame('0/0');
    await settled(root);
    const numerics = pane(root, 'numerics');
    const check = numerics.querySelector<HTMLElement>('.jp-DynamoExplorer-numericsCheck[data-compile-id="0/0"]')!;
    expect(check.querySelector('[data-verdict]')!.textContent).toBe('worse than eager');
    expect(check.querySelector('.jp-DynamoExplorer-numericsSummary')!.textContent).toMatch(
      /^\[0\/0\] f: out\[0\] worse than eager \(1\.\de-03 vs 0\.0e\+00 from float64\); from inductor's post-grad passes: post_grad_custom_post_pass \(.*\); first worse node mul \(_operator\.mul\(l_x_, 2\.0\)\), line 11, in cpp_fused_mul_relu_0$/
    );
    const row = check.querySelector<HTMLElement>('tr[data-output="0"]')!;
    expect(row.dataset.verdict).toBe('worse_than_eager');
    expect(row.textContent).toContain('float32[64]');
    expect(numerics.querySelector('.jp-DynamoExplorer-toolbar')!.textContent).toMatch(/^4 checked calls · /);
  });

  it('says why a graph was not compared, and opens a graph in the FX pane', async () => {
    const { widget, root } = await render(golden('numerics'));
    const view = widget.view!;
    await view.selectFrame('2/0');
    await settled(root);
    const check = pane(root, 'numerics').querySelector<HTMLElement>('.jp-DynamoExplorer-numericsCheck')!;
    expect(check.textContent).toContain('random ops (dropout) draw numbers an eager run cannot replay');
    expect(check.querySelector('table')).toBeNull();
    await view.selectFrame('1/0');
    await settled(root);
    const bf16 = pane(root, 'numerics').querySelector<HTMLElement>('.jp-DynamoExplorer-numericsCheck')!;
    expect(bf16.textContent).toContain('bfloat16 intermediates in float32');
    bf16.querySelector<HTMLButtonElement>('button')!.click();
    await settled(root);
    const graphId = numericsOf(golden('numerics'))!.graphs[1].graph_id;
    expect(pane(root, 'fx-graph').dataset.graphId).toBe(String(graphId));
  });

  it('opens the first node whose compiled value is worse in the FX pane, and its kernel in the code pane', async () => {
    const { widget, root } = await render(golden('numerics'));
    await widget.view!.selectFrame('0/0');
    await settled(root);
    const check = pane(root, 'numerics').querySelector<HTMLElement>('.jp-DynamoExplorer-numericsCheck')!;
    expect(check.querySelector('.jp-DynamoExplorer-numericsLocation')!.textContent).toBe(
      'compiler bisector: inductor › post_grad_passes › post_grad_custom_post_pass'
    );
    check.querySelector<HTMLButtonElement>('button[data-node="mul"]')!.click();
    await settled(root);
    const fx = pane(root, 'fx-graph');
    await vi.waitFor(() => expect(fx.querySelector('.jp-mod-selected[data-node="mul"]')).not.toBeNull());
    check.querySelector<HTMLButtonElement>('button[data-kernel="cpp_fused_mul_relu_0"]')!.click();
    await settled(root);
    const section = pane(root, 'code').querySelector<HTMLElement>('section[data-kernel="cpp_fused_mul_relu_0"]')!;
    expect(section.classList.contains('jp-mod-target')).toBe(true);
  });

  it('names each graph worse than eager in a banner, which shows its frame', async () => {
    const { widget, root } = await render(golden('numerics'));
    const banner = root.querySelector<HTMLElement>('[data-banner="numerics"]')!;
    expect(banner.textContent).toContain('Compiled numbers worse than eager against float64: [0/0] f: out[0]');
    await widget.view!.selectFrame('3/0');
    banner.querySelector<HTMLButtonElement>('button')!.click();
    await settled(root);
    expect(widget.view!.frame!.compile_id).toBe('0/0');
  });

  it('without the check says how to ask for it, and has no banner', async () => {
    const { root } = await render(golden('toy_example'));
    expect(pane(root, 'numerics').querySelector('.jp-DynamoExplorer-empty')!.textContent).toBe(NOT_CHECKED);
    expect(root.querySelector('[data-banner="numerics"]')).toBeNull();
    expect(worseChecks(numericsOf(golden('toy_example')))).toEqual([]);
  });

  it('writes a difference as the engine does', () => {
    expect(formatError(0.0016)).toBe('1.6e-03');
    expect(formatError(0)).toBe('0.0e+00');
    expect(formatError(12345)).toBe('1.2e+04');
    expect(formatError(null)).toBe('');
    expect(checksOf(numericsOf(golden('numerics'))!, '3/0').map(g => g.verdict)).toEqual(['matches']);
  });
});
