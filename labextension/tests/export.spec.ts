/**
 * Export of the FX picture: the toolbar's SVG and PNG buttons, the standalone SVG (a valid SVG document with
 * the styles inlined and the background painted), colour normalization, the PNG scale and the file name.
 * PNG encoding needs a real canvas: tests/browser/test_graph_export.py clicks both buttons in Chromium.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Graph } from '../src/schema';
import {
  exportFileName,
  legacyColours,
  MAX_CANVAS_AREA,
  MAX_CANVAS_SIDE,
  pngScale,
  standaloneSvg,
  SVG_NS
} from '../src/graph/svgExport';
import { golden, pane, render, settled } from './helpers';

afterEach(() => {
  document.body.textContent = '';
  vi.restoreAllMocks();
});

/** The text of a blob (jsdom's Blob has no text()). */
function blobText(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.addEventListener('load', () => resolve(String(reader.result)));
    reader.addEventListener('error', () => reject(reader.error));
    reader.readAsText(blob);
  });
}

/** Parse an exported SVG as a standalone XML document would be read. */
function parse(text: string): Document {
  const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
  expect(doc.getElementsByTagName('parsererror')).toHaveLength(0);
  return doc;
}

async function drawnToy(): Promise<{ root: HTMLElement; fx: HTMLElement; svg: SVGSVGElement }> {
  const { root } = await render(golden('toy_example'));
  const fx = pane(root, 'fx-graph');
  const svg = fx.querySelector<SVGSVGElement>('.jp-DynamoExplorer-picture svg')!;
  expect(svg).not.toBeNull();
  return { root, fx, svg };
}

describe('FX picture export', () => {
  it('has SVG and PNG buttons, enabled while a picture is drawn', async () => {
    const { root, fx } = await drawnToy();
    const buttons = Array.from(
      fx.querySelectorAll<HTMLButtonElement>('.jp-DynamoExplorer-toolbar button[data-export]')
    );
    expect(buttons.map(b => [b.dataset.export, b.textContent, b.disabled])).toEqual([
      ['svg', 'SVG', false],
      ['png', 'PNG', false]
    ]);
    fx.querySelector<HTMLElement>('.jp-DynamoExplorer-toggle button[data-value="table"]')!.click();
    await new Promise(r => setTimeout(r, 20));
    await settled(root);
    expect(buttons.every(b => b.disabled)).toBe(true); // the table view draws no picture
  });

  it('serializes the drawn graph as a standalone SVG document with its styles inlined', async () => {
    const { svg } = await drawnToy();
    const report = golden('toy_example');
    const graph = report.graphs.find(g => g.compile_id === '0/0' && g.kind === 'dynamo')!;
    const styleOf = (el: Element): Pick<CSSStyleDeclaration, 'getPropertyValue'> => ({
      getPropertyValue: (prop: string) =>
        ({
          fill: el.localName === 'text' ? 'rgb(1, 2, 3)' : 'color(srgb 1 0.5 0 / 0.5)',
          stroke: 'rgb(10, 20, 30)',
          'font-family': 'Helvetica', // fonts matter for text only
          opacity: '1'
        })[prop] ?? ''
    });
    const before = svg.outerHTML;
    const text = standaloneSvg(svg, { styleOf, background: 'rgb(255, 255, 255)' });
    expect(svg.outerHTML).toBe(before); // the page's picture is not touched
    expect(text.startsWith('<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n<svg')).toBe(true);
    const doc = parse(text);
    const root = doc.documentElement;
    expect(root.localName).toBe('svg');
    expect(root.namespaceURI).toBe(SVG_NS);
    expect(root.getAttribute('viewBox')).toBe(svg.getAttribute('viewBox'));
    expect(root.hasAttribute('class')).toBe(false);
    const nodes = Array.from(root.querySelectorAll('g.node[data-node]'), g => g.getAttribute('data-node'));
    expect(nodes.sort()).toEqual(graph.nodes.map(n => n.name).sort());
    const label = root.querySelector('g.node text')!;
    expect(label.getAttribute('style')).toBe('fill: rgb(1, 2, 3); stroke: rgb(10, 20, 30); font-family: Helvetica');
    const shape = root.querySelector('g.node path, g.node polygon')!;
    expect(shape.getAttribute('style')).toBe('fill: rgba(255, 128, 0, 0.5); stroke: rgb(10, 20, 30)');
    expect(root.querySelector('g')!.hasAttribute('style')).toBe(false); // groups only hand styles down
    const background = root.firstElementChild!;
    expect(background.localName).toBe('rect');
    expect(background.getAttribute('fill')).toBe('rgb(255, 255, 255)');
    const box = svg.getAttribute('viewBox')!.trim().split(/\s+/).map(Number);
    expect(['x', 'y', 'width', 'height'].map(a => Number(background.getAttribute(a)))).toEqual(box);
  });

  it('paints no background when the pane has none, and reads the computed style by default', async () => {
    const { svg } = await drawnToy();
    const doc = parse(standaloneSvg(svg, { background: 'rgba(0, 0, 0, 0)' }));
    expect(doc.documentElement.firstElementChild!.localName).not.toBe('rect');
    expect(doc.querySelectorAll('g.node').length).toBe(svg.querySelectorAll('g.node').length);
  });

  it('downloads graph_<compile id>_<kind>.svg when SVG is clicked', async () => {
    const { fx } = await drawnToy();
    const blobs: Blob[] = [];
    const created = vi.fn((blob: Blob) => {
      blobs.push(blob);
      return `blob:test/${blobs.length}`;
    });
    Object.assign(URL, { createObjectURL: created, revokeObjectURL: vi.fn() });
    const clicks: Array<{ download: string; href: string; attached: boolean }> = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push({ download: this.download, href: this.getAttribute('href')!, attached: this.isConnected });
    });
    fx.querySelector<HTMLButtonElement>('button[data-export="svg"]')!.click();
    await vi.waitFor(() => expect(clicks).toHaveLength(1));
    expect(clicks[0]).toEqual({ download: 'graph_0_0_dynamo.svg', href: 'blob:test/1', attached: true });
    expect(fx.dataset.exported).toBe('graph_0_0_dynamo.svg');
    expect(blobs[0].type).toBe('image/svg+xml');
    const doc = parse(await blobText(blobs[0]));
    expect(doc.documentElement.namespaceURI).toBe(SVG_NS);
    expect(doc.querySelectorAll('g.node').length).toBeGreaterThan(0);
    expect(document.querySelector('a[download]')).toBeNull(); // the temporary link is gone
  });
});

describe('export helpers', () => {
  it('turns color(srgb …) into rgb()/rgba() and leaves other colours alone', () => {
    expect(legacyColours('color(srgb 0 0.5 1)')).toBe('rgb(0, 128, 255)');
    expect(legacyColours('color(srgb 1 1 1 / 0.25)')).toBe('rgba(255, 255, 255, 0.25)');
    expect(legacyColours('color(srgb 100% 0% 50% / 100%)')).toBe('rgb(255, 0, 128)');
    expect(legacyColours('rgb(1, 2, 3)')).toBe('rgb(1, 2, 3)');
    expect(legacyColours('none')).toBe('none');
    expect(legacyColours('oklab(0.5 0.1 0.1)')).toBe('oklab(0.5 0.1 0.1)');
  });

  it('scales a PNG as asked unless the canvas would be too big', () => {
    expect(pngScale(400, 300, 2)).toBe(2);
    expect(pngScale(12000, 100, 2) * 12000).toBeLessThanOrEqual(MAX_CANVAS_SIDE);
    const s = pngScale(8000, 8000, 2);
    expect(8000 * s * 8000 * s).toBeLessThanOrEqual(MAX_CANVAS_AREA + 1);
    expect(pngScale(0, 0, 3)).toBe(3);
  });

  it('names files after the compile id and kind, with the graph id when a frame has several', () => {
    const graph = { id: 7, compile_id: '0/1', kind: 'dynamo' } as Graph;
    expect(exportFileName(graph, 1, 'svg')).toBe('graph_0_1_dynamo.svg');
    expect(exportFileName(graph, 2, 'png')).toBe('graph_0_1_dynamo_7.png');
    expect(exportFileName({ ...graph, kind: 'dynamo_partial', compile_id: '3/0' }, 1, 'png')).toBe(
      'graph_3_0_dynamo_partial.png'
    );
  });
});
