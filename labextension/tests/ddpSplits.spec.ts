/**
 * DDP's graph splits (src/model/ddpSplits.ts, the FX pane's graph buttons) on the ddp_split golden: a real
 * DistributedDataParallel forward that DDPOptimizer compiled in three pieces (tests/goldens/cases.py). The frame's
 * graphs are offered as Dynamo's whole graph, the split graph, then each piece by DDPOptimizer's name; each says
 * what it is and what its bucket holds.
 */
import { describe, expect, it } from 'vitest';
import { ddpNote, formatBytes } from '../src/model/ddpSplits';
import { golden, pane, render, settled } from './helpers';

describe('DDP splits', () => {
  const report = golden('ddp_split');
  const [split] = report.ddp_splits!;

  it('says what the split graph and each piece are, with their parameters and bytes', () => {
    const byId = new Map(report.graphs.map(g => [g.id, g]));
    expect(ddpNote(byId.get(split.graph_id!)!, report.ddp_splits!)).toBe(
      "DDPOptimizer split the Dynamo graph at DDP's bucket boundaries (bucket cap 1.0 MB) into 3 pieces · "
    );
    const notes = split.submodules.map(m => ddpNote(byId.get(m.graph_id!)!, report.ddp_splits!));
    expect(notes).toEqual([
      'submod_0: piece 1 of 3 of a DDP split, compiled on its own · 2 parameters, 34.0 KB · ',
      'submod_1: piece 2 of 3 of a DDP split, compiled on its own · 2 parameters, 1.0 MB · ',
      'submod_2: piece 3 of 3 of a DDP split, compiled on its own · 4 parameters, 1.0 MB · '
    ]);
    expect([formatBytes(16), formatBytes(34816), formatBytes(1 << 20)]).toEqual(['16 B', '34.0 KB', '1.0 MB']);
  });

  it("offers the frame's graphs in order: Dynamo's, the split graph, then each piece by its name", async () => {
    const { widget, root } = await render(report);
    await widget.view!.selectFrame(split.compile_id);
    await settled(root);
    const fx = pane(root, 'fx-graph');
    const buttons = Array.from(fx.querySelectorAll<HTMLButtonElement>('.jp-DynamoExplorer-graphButtons button'));
    expect(buttons.map(b => b.textContent)).toEqual(['dynamo', 'DDP split', 'submod_0', 'submod_1', 'submod_2']);
    expect(buttons.map(b => b.dataset.kind)).toEqual([
      'dynamo',
      'ddp_split_graph',
      'ddp_split_child',
      'ddp_split_child',
      'ddp_split_child'
    ]);
    buttons[3].click();
    await settled(root);
    expect(fx.querySelector('.jp-DynamoExplorer-graphInfo')!.textContent).toContain(
      'submod_1: piece 2 of 3 of a DDP split, compiled on its own · 2 parameters, 1.0 MB · '
    );
    expect(buttons[3].getAttribute('aria-pressed')).toBe('true');
    // the code pane's tabs name each piece too
    const tabs = [...pane(root, 'code').querySelectorAll<HTMLElement>('[role="tab"]')].map(t => t.textContent);
    expect(tabs).toEqual(expect.arrayContaining(['DDP split graph', 'DDP piece submod_0', 'DDP piece submod_2']));
  });
});
