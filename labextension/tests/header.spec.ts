/**
 * The header on the real own_options golden (issue 23): what scope 'calls' compiled and with which options (the
 * user's own torch.compile options kept), the function a thread ran, the coroutine run plain, and the reset the
 * cell made, with its line.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { calleeText, settingsText } from '../src/panes/header';
import { golden, pane, render } from './helpers';

afterEach(() => {
  document.body.textContent = '';
});

describe('header: callees and resets', () => {
  it('names the options each compiled callee ran with and what ran plain, and why', async () => {
    const report = golden('own_options');
    const { root } = await render(report);
    const header = pane(root, 'header');
    const compiled = header.querySelector<HTMLElement>('[data-callees="compiled"]')!.textContent!;
    expect(compiled).toContain("cg (line 11, your torch.compile: backend='aot_eager', dynamic=False)");
    expect(compiled).toContain('work (line 17, on another thread: threading.Thread)');
    const plain = header.querySelector<HTMLElement>('[data-callees="plain"]')!.textContent!;
    expect(plain).toBe('ran plainmain (line 24, a coroutine function (async def))');
  });

  it('says where the cell reset Dynamo', async () => {
    const report = golden('own_options');
    const { root } = await render(report);
    const banner = pane(root, 'header').querySelector<HTMLElement>('[data-banner="reset"]')!;
    expect(banner.textContent).toContain('The cell reset Dynamo at line 5 (torch._dynamo.reset())');
    expect(banner.querySelector('button')!.textContent).toContain('line 5');
  });

  it('writes options as torch.compile arguments, the words the Python summary uses', () => {
    const settings = {
      origin: 'torch.compile' as const,
      backend: 'inductor',
      mode: 'reduce-overhead',
      dynamic: true,
      fullgraph: true,
      options: { max_autotune: true },
      recompile_limit: 3
    };
    expect(settingsText(settings)).toBe(
      "backend='inductor', mode='reduce-overhead', dynamic=True, fullgraph=True, options={'max_autotune': True}, recompile_limit=3"
    );
    expect(calleeText({ name: 'f', line: 2, compiled: true, why: 'a function you defined', compile: settings })).toBe(
      `f (line 2, your torch.compile: ${settingsText(settings)})`
    );
  });

  it('a report without callees shows no callee row and no reset banner', async () => {
    const { root } = await render(golden('cell_scope'));
    expect(root.querySelector('.jp-DynamoExplorer-callees')).toBeNull();
    expect(root.querySelector('[data-banner="reset"]')).toBeNull();
  });
});
