/**
 * The Try a fix pane (issue 13 item 4) without JupyterLab: the fixes listed, their targets opening the break or
 * recompile in the other panes, the before/after table of a `--try` run, the Try it button only where a notebook
 * host can run the cell (reportHub.ts), and the `%%dynamo` line to copy where none can. The model (the magic
 * line, the before/after table) is tryFixModel.spec.ts; the notebook host in a real JupyterLab with a real
 * kernel is tests/browser/test_viewer_try_fix.py.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setReportHost, type IReportHost } from '../src/view/reportHub';
import { TryFixPane } from '../src/view/panes/tryFix';
import { readFixes } from '../src/model/tryFixModel';
import { golden, pane, render, settled } from './helpers';
import { BODY, ITEM_FIX, itemReport, outcome, recompileReport, tryFix } from './tryFixFixtures';

afterEach(() => {
  setReportHost(null);
  document.body.textContent = '';
});

/** A notebook host that records what it was asked to run (the real one is notebookFix.ts, in the browser test). */
class RecordingHost implements IReportHost {
  readonly runs: Array<{ node: HTMLElement; source: string }> = [];
  constructor(public source: string | null) {}
  cellSource(): string | null {
    return this.source;
  }
  runBelow(node: HTMLElement, source: string): Promise<void> {
    this.runs.push({ node, source });
    return Promise.resolve();
  }
}

function tryPane(root: HTMLElement): HTMLElement {
  return pane(root, 'try-fix');
}

function button(el: Element, action: string): HTMLButtonElement | null {
  return el.querySelector<HTMLButtonElement>(`button[data-action="${action}"]`);
}

describe('the pane', () => {
  it('lists each fix with its title, kind, API, code, why and targets', async () => {
    const { root } = await render(itemReport());
    const el = tryPane(root);
    expect(el.querySelector('.jp-DynamoExplorer-paneTitleText')!.textContent).toBe('Try a fix (2 fixes on offer)');
    const cards = Array.from(el.querySelectorAll<HTMLElement>('.jp-DynamoExplorer-fix'));
    expect(cards.map(c => [c.dataset.fix, c.dataset.kind])).toEqual([
      ['capture_scalar_outputs', 'config'],
      ['cond', 'hint']
    ]);
    const [item, hint] = cards;
    expect(item.querySelector('.jp-DynamoExplorer-fixTitle')!.textContent).toBe('Capture .item() in the graph');
    expect(item.querySelector('.jp-DynamoExplorer-fixApi code')!.textContent).toBe(ITEM_FIX.api);
    expect(item.querySelector('.jp-DynamoExplorer-fixCode')!.textContent).toBe(ITEM_FIX.code);
    expect(item.querySelector('.jp-DynamoExplorer-fixWhy')!.textContent).toBe(ITEM_FIX.why);
    const target = item.querySelector<HTMLElement>('.jp-DynamoExplorer-fixTargets button')!;
    expect(target.textContent).toBe(
      'graph break in [0/0]: Unsupported Tensor.item() call with capture_scalar_outputs=False at line 4'
    );
    expect(target.dataset).toMatchObject({ targetKind: 'graph_break', compileId: '0/0', index: '0' });
    // the frame shown first is [0/0], the one the fixes target
    expect(item.classList.contains('jp-mod-current')).toBe(true);
    // a hint: its code, no button, no line to run
    expect(hint.classList.contains('jp-mod-hint')).toBe(true);
    expect(hint.querySelector('button[data-action]')).toBeNull();
    expect(hint.querySelector('.jp-DynamoExplorer-tryLine')).toBeNull();
    expect(hint.querySelector('.jp-DynamoExplorer-fixHint')!.textContent).toContain('A rewrite only you can make');
  });

  it('says when nothing is on offer, also for a report written before fixes existed', async () => {
    const old = golden('toy_example');
    delete old.fixes;
    const { root } = await render(old);
    expect(tryPane(root).querySelector('.jp-DynamoExplorer-empty')!.textContent).toBe(
      'No fix on offer: no graph break or recompile of this run has a known remedy.'
    );
    expect(readFixes(old)).toEqual([]);
  });

  it('opens a targeted break in the graph-breaks pane and a recompile in the guards pane', async () => {
    const { widget, root } = await render(itemReport());
    const view = widget.view!;
    await view.selectFrame('1/0');
    await settled(root);
    tryPane(root).querySelector<HTMLElement>('.jp-DynamoExplorer-fixTargets button')!.click();
    await vi.waitFor(() => {
      const selected = pane(root, 'graph-breaks').querySelector('.jp-DynamoExplorer-break.jp-mod-selected');
      expect(selected?.textContent).toContain('Tensor.item()');
    });
    await settled(root);
    expect(view.frame!.compile_id).toBe('0/0');
    expect(pane(root, 'source').querySelector('.jp-DynamoExplorer-row[data-line="4"]')!.className).toContain(
      'jp-mod-selected'
    );

    const { widget: other, root: otherRoot } = await render(recompileReport());
    await other.view!.selectFrame('0/0');
    const recompile = tryPane(otherRoot).querySelector<HTMLElement>('button[data-target-kind="recompile"]')!;
    expect(recompile.textContent).toBe("recompile [0/1]: tensor 'x' dtype mismatch. expected Float, actual Double");
    recompile.click();
    await vi.waitFor(() => expect(other.view!.frame!.compile_id).toBe('0/1'));
    await settled(otherRoot);
    const reasons = pane(otherRoot, 'guards').querySelector('[data-section="recompile-reasons"]')!;
    expect(reasons.classList.contains('jp-mod-flash')).toBe(true);
  });

  it('offers the line to copy, with the report’s options, where no notebook host can run the cell', async () => {
    const { root } = await render(itemReport());
    const card = tryPane(root).querySelector<HTMLElement>('[data-fix="capture_scalar_outputs"]')!;
    expect(button(card, 'try')).toBeNull();
    expect(card.querySelector('[data-action="copy-line"]')!.textContent).toBe(
      '%%dynamo --backend eager --try capture_scalar_outputs'
    );
  });

  it('shows Try it only with a host, says the cell runs again, and runs the cell’s own line with --try', async () => {
    const host = new RecordingHost(`%%dynamo --backend eager --try dynamic${BODY}`);
    setReportHost(host);
    const { widget, root } = await render(itemReport());
    const el = tryPane(root);
    const card = el.querySelector<HTMLElement>('[data-fix="capture_scalar_outputs"]')!;
    expect(card.querySelector('[data-action="copy-line"]')).toBeNull();
    expect(button(el.querySelector('[data-fix="cond"]')!, 'try')).toBeNull(); // a hint never runs

    // Try it asks first, with the exact line; Cancel goes back
    button(card, 'try')!.click();
    const confirm = card.querySelector<HTMLElement>('.jp-DynamoExplorer-tryConfirm')!;
    expect(confirm.textContent).toContain('This runs the cell again');
    expect(confirm.querySelector('.jp-DynamoExplorer-tryLine')!.textContent).toBe(
      '%%dynamo --backend eager --try capture_scalar_outputs'
    );
    expect(document.activeElement).toBe(button(card, 'confirm'));
    button(card, 'cancel')!.click();
    expect(card.querySelector('.jp-DynamoExplorer-tryConfirm')).toBeNull();
    expect(document.activeElement).toBe(button(card, 'try'));
    button(card, 'try')!.click(); // Escape cancels too
    button(card, 'confirm')!.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    expect(card.querySelector('.jp-DynamoExplorer-tryConfirm')).toBeNull();
    expect(host.runs).toEqual([]);

    // confirmed: the host runs the cell's own body below, the magic line with --try replaced
    button(card, 'try')!.click();
    button(card, 'confirm')!.click();
    await vi.waitFor(() =>
      expect(card.querySelector('[data-state="running"]')?.textContent).toContain('Running below')
    );
    expect(host.runs).toEqual([
      { node: widget.node, source: `%%dynamo --backend eager --try capture_scalar_outputs${BODY}` }
    ]);

    button(card, 'dismiss')!.click(); // back to Try it, for another go
    expect(button(card, 'try')).not.toBeNull();

    // the host goes away (or was never there for this cell): the line to copy comes back
    setReportHost(null);
    expect(button(card, 'try')).toBeNull();
    expect(card.querySelector('[data-action="copy-line"]')).not.toBeNull();
  });

  it('shows no button for a cell that is not a %%dynamo cell, and says why a run failed', async () => {
    const host = new RecordingHost('print(1)\n');
    setReportHost(host);
    const { root } = await render(itemReport());
    const card = tryPane(root).querySelector<HTMLElement>('[data-fix="capture_scalar_outputs"]')!;
    expect(button(card, 'try')).toBeNull();
    host.source = `%%dynamo${BODY}`;
    host.runBelow = () => Promise.reject(new Error('the report is no longer in a notebook cell'));
    setReportHost(host); // the host tells the pane again
    button(card, 'try')!.click();
    button(card, 'confirm')!.click();
    await vi.waitFor(() =>
      expect(card.querySelector('[data-state="error"]')?.textContent).toBe(
        'Could not run it: the report is no longer in a notebook cell'
      )
    );
  });

  it('takes the button away when its output is withdrawn', async () => {
    setReportHost(new RecordingHost(`%%dynamo${BODY}`));
    const { widget, root } = await render(itemReport());
    const paneObj = widget.view!.panes.get('try-fix') as TryFixPane;
    const card = paneObj.cardOf('capture_scalar_outputs')!;
    expect(paneObj.actions).not.toBeNull();
    expect(button(card, 'try')).not.toBeNull();
    widget.dispose(); // the output cleared or re-rendered
    expect(paneObj.actions).toBeNull();
    expect(button(card, 'try')).toBeNull();
    expect(root.querySelector('[data-pane]')).not.toBeNull();
  });
});

describe('a --try run', () => {
  it('draws the before/after table, improvements and regressions marked, the change, what was restored', async () => {
    const report = itemReport();
    report.options.try_fix = 'capture_scalar_outputs';
    report.try_fix = tryFix({
      after: outcome({ frames: 1, graphs: 1, graph_breaks: 0, recompiles: 1 }),
      change:
        '--- cell\n+++ cell (for this run)\n@@ -4,1 +4,2 @@\n     total = x.sum().item()\n+    torch._check(total > 0)\n',
      restored: 'nothing to restore: the cell ran from an edited copy'
    });
    const { root } = await render(report);
    const el = tryPane(root);
    expect(el.querySelector('.jp-DynamoExplorer-paneTitleText')!.textContent).toBe(
      'Try a fix (2 fixes on offer: capture_scalar_outputs applied)'
    );
    const result = el.querySelector<HTMLElement>('[data-section="try-result"]')!;
    const rows = Array.from(result.querySelectorAll<HTMLElement>('tbody tr'), tr => [
      tr.dataset.key,
      ...Array.from(tr.children, c => c.textContent)
    ]);
    expect(rows.slice(0, 4)).toEqual([
      ['frames', 'frames compiled', '2', '1', '▼ better'],
      ['graphs', 'graphs', '2', '1', '▼ better'],
      ['graph_breaks', 'graph breaks', '1', '0', '▼ better'],
      ['recompiles', 'recompiles', '0', '1', '▲ worse']
    ]);
    expect(result.querySelector('tr[data-key="graph_breaks"]')!.className).toBe('jp-mod-better');
    expect(result.querySelector('tr[data-key="recompiles"]')!.className).toBe('jp-mod-worse');
    expect(result.textContent).toContain("before: the cell's previous run in this kernel (In [2])");
    expect(result.querySelector('.jp-DynamoExplorer-diff-add')!.textContent).toBe('+    torch._check(total > 0)\n');
    expect(result.querySelector('.jp-DynamoExplorer-tryRestored')!.textContent).toBe(
      'restored after the run: nothing to restore: the cell ran from an edited copy'
    );
    const applied = el.querySelector<HTMLElement>('[data-fix="capture_scalar_outputs"]')!;
    expect(applied.classList.contains('jp-mod-applied')).toBe(true);
    expect(applied.textContent).toContain('applied in this run');
  });

  it('words a config change as a line and says when nothing is left to fix', async () => {
    const report = golden('item_break');
    report.fixes = [];
    report.try_fix = tryFix();
    const { root } = await render(report);
    const el = tryPane(root);
    expect(el.querySelector('.jp-DynamoExplorer-tryChangeText')!.textContent).toBe(
      'changed for this run only: torch._dynamo.config.capture_scalar_outputs = True'
    );
    expect(el.querySelector('.jp-DynamoExplorer-tryDiff')).toBeNull();
    expect(el.querySelector('.jp-DynamoExplorer-empty')!.textContent).toContain('No fix on offer for what is left');
  });
});

describe('the try_fix golden (a real --try capture_scalar_outputs run)', () => {
  it('shows fewer graph breaks after the fix, and the fixes still on offer with their lines', async () => {
    const report = golden('try_fix');
    const { root } = await render(report);
    const el = tryPane(root);
    const rows = Array.from(el.querySelectorAll<HTMLElement>('[data-section="try-result"] tbody tr'), tr => [
      tr.dataset.key,
      tr.dataset.change,
      tr.children[1].textContent,
      tr.children[2].textContent
    ]);
    expect(rows.slice(0, 4)).toEqual([
      ['frames', 'better', '4', '3'],
      ['graphs', 'better', '4', '3'],
      ['graph_breaks', 'better', '1', '0'],
      ['recompiles', 'same', '1', '1']
    ]);
    expect(el.querySelector('.jp-DynamoExplorer-tryChangeText')!.textContent).toContain(
      'torch._dynamo.config.capture_scalar_outputs = True for this run'
    );
    const names = Array.from(el.querySelectorAll<HTMLElement>('li.jp-DynamoExplorer-fix'), c => c.dataset.fix);
    expect(names).toEqual(readFixes(report).map(f => f.name));
    expect(names).toContain('dynamic');
    // the line to copy: the user's options (the engine's own --fresh of a --try run left out), --try replaced
    const line = el.querySelector('[data-fix="dynamic"] [data-action="copy-line"]')!.textContent;
    expect(line).toBe('%%dynamo --backend eager --try dynamic');
    // each target is a frame of this report, its recompile named
    for (const target of el.querySelectorAll<HTMLElement>('.jp-DynamoExplorer-fixTargets button')) {
      expect(report.frames.map(f => f.compile_id)).toContain(target.dataset.compileId);
      expect(target.textContent).toMatch(/^recompile \[\d+\/1\]: tensor 'x' size mismatch at index 0/);
    }
  });
});
