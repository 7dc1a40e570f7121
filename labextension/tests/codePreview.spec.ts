/**
 * Long code is shown plain and in part until asked (highlight.ts `codeBlock`): at most PREVIEW_LINES lines and
 * PREVIEW_CHARS characters, whatever the lines (a 100,000-node graph's `forward` takes its parameters on one line
 * of megabytes), with a button that shows the whole.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { PREVIEW_CHARS } from '../src/view/highlight';
import { golden, pane, render } from './helpers';

afterEach(() => {
  document.body.textContent = '';
});

describe('the code pane on a graph whose code has a line of megabytes', () => {
  it('shows its first PREVIEW_CHARS characters, and the whole on show all', async () => {
    const report = golden('toy_example');
    const graph = report.graphs.find(g => g.kind === 'dynamo')!;
    const params = Array.from({ length: 60_000 }, (_, i) => `p${i} : torch.Tensor`).join(', ');
    graph.code = `def forward(self, ${params}):\n    return (p0,)\n`;
    expect(graph.code.length).toBeGreaterThan(5 * PREVIEW_CHARS);
    const { root } = await render(report);
    const code = pane(root, 'code');
    const pre = code.querySelector<HTMLElement>('pre.jp-DynamoExplorer-code')!;
    expect(pre.textContent).toBe(graph.code.slice(0, PREVIEW_CHARS));
    const more = code.querySelector<HTMLButtonElement>('.jp-DynamoExplorer-more')!;
    expect(more.textContent).toMatch(/^show all \(1\.\d MB\)$/);
    more.click();
    expect(pre.textContent).toBe(graph.code);
    expect(code.querySelector('.jp-DynamoExplorer-more')).toBeNull();
  });

  it('keeps a short graph as rows, one a line', async () => {
    const { root } = await render(golden('toy_example'));
    expect(
      pane(root, 'code').querySelectorAll('.jp-DynamoExplorer-codeLines .jp-DynamoExplorer-row').length
    ).toBeGreaterThan(3);
  });
});
