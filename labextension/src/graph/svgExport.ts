/**
 * Export of the FX picture: the graphviz SVG drawn in the pane as a standalone SVG document, and as a PNG.
 *
 * In the page the picture takes its colours from the stylesheet (theme variables, line colours, the selected
 * node), which a file opened elsewhere does not have: `standaloneSvg` copies the computed presentation
 * properties of every drawn element onto it as a `style` attribute and paints the pane's background behind
 * the graph, so the file looks as the pane did. `svgToPng` draws that SVG onto a canvas (2x at least) and
 * encodes it with `canvas.toBlob`. `standaloneSvg`, `legacyColours`, `pngScale` and `exportFileName` are
 * pure (the tests run them in jsdom); `svgToPng` and `downloadBlob` need a browser.
 */
import { h } from '../dom';
import type { Graph } from '../schema';

/** The SVG namespace. */
export const SVG_NS = 'http://www.w3.org/2000/svg';

/** The namespace of `xmlns` attributes. */
const XMLNS_NS = 'http://www.w3.org/2000/xmlns/';

/** Presentation properties copied from the computed style onto each drawn element. */
export const INLINED_PROPERTIES = [
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-opacity',
  'stroke-dasharray',
  'opacity',
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'text-anchor'
] as const;

/** Initial values not worth writing down (a computed style lists every property). */
const INITIAL: Record<string, string> = {
  'fill-opacity': '1',
  'stroke-opacity': '1',
  opacity: '1',
  'stroke-dasharray': 'none',
  'font-style': 'normal',
  'font-weight': '400'
};

/** Elements that draw something; groups only hand styles down, and their leaves carry them computed. */
const DRAWN = new Set(['path', 'polygon', 'polyline', 'ellipse', 'circle', 'rect', 'line', 'text', 'tspan']);

/** Elements that draw text: the only ones whose font properties matter. */
const TEXT = new Set(['text', 'tspan']);

/** Where the export reads an element's styles (by default the page's computed style). */
export type StyleOf = (el: Element) => Pick<CSSStyleDeclaration, 'getPropertyValue'>;

/** Options of `standaloneSvg`. */
export interface IStandaloneOptions {
  /** Styles of an element of the drawn SVG; by default `getComputedStyle`. */
  styleOf?: StyleOf;
  /** A colour painted behind the graph (the pane's background); none when empty or transparent. */
  background?: string | null;
}

/**
 * The drawn SVG as a standalone SVG document (with its XML declaration): a copy with the computed
 * presentation styles inlined and the background painted. The element itself is not changed.
 */
export function standaloneSvg(svg: SVGSVGElement, options: IStandaloneOptions = {}): string {
  const styleOf = options.styleOf ?? computedStyleOf;
  const clone = svg.cloneNode(true) as SVGSVGElement;
  const originals = Array.from(svg.querySelectorAll('*'));
  const copies = Array.from(clone.querySelectorAll('*'));
  originals.forEach((el, i) => {
    if (!DRAWN.has(el.localName)) {
      return;
    }
    const style = styleOf(el);
    const declarations: string[] = [];
    for (const prop of INLINED_PROPERTIES) {
      if ((prop.startsWith('font-') || prop === 'text-anchor') && !TEXT.has(el.localName)) {
        continue;
      }
      const value = style.getPropertyValue(prop).trim();
      if (value && INITIAL[prop] !== value) {
        declarations.push(`${prop}: ${legacyColours(value)}`);
      }
    }
    if (declarations.length > 0) {
      copies[i].setAttribute('style', declarations.join('; '));
    }
  });
  clone.removeAttribute('class');
  clone.setAttributeNS(XMLNS_NS, 'xmlns', SVG_NS);
  const background = options.background ? legacyColours(options.background.trim()) : '';
  if (background && !isTransparent(background)) {
    const rect = clone.ownerDocument.createElementNS(SVG_NS, 'rect');
    const box = (clone.getAttribute('viewBox') ?? '')
      .trim()
      .split(/[\s,]+/)
      .map(Number);
    if (box.length === 4 && box.every(Number.isFinite)) {
      rect.setAttribute('x', String(box[0]));
      rect.setAttribute('y', String(box[1]));
      rect.setAttribute('width', String(box[2]));
      rect.setAttribute('height', String(box[3]));
    } else {
      rect.setAttribute('width', '100%');
      rect.setAttribute('height', '100%');
    }
    rect.setAttribute('fill', background);
    rect.setAttribute('data-export', 'background');
    clone.insertBefore(rect, clone.firstChild);
  }
  return '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n' + new XMLSerializer().serializeToString(clone);
}

/**
 * Colours as every SVG reader knows them: `color(srgb r g b / a)` (how browsers compute `color-mix()`)
 * becomes `rgb()` / `rgba()`; anything else is left as it is.
 */
export function legacyColours(value: string): string {
  const channel = (text: string): number => {
    const n = text.endsWith('%') ? parseFloat(text) / 100 : parseFloat(text);
    return Math.min(255, Math.max(0, Math.round((Number.isFinite(n) ? n : 0) * 255)));
  };
  const alpha = (text: string): number => {
    const n = text.endsWith('%') ? parseFloat(text) / 100 : parseFloat(text);
    return Math.min(1, Math.max(0, Number.isFinite(n) ? n : 1));
  };
  const num = '([-+]?[\\d.]+(?:[eE][-+]?\\d+)?%?|none)';
  const pattern = new RegExp(`color\\(srgb\\s+${num}\\s+${num}\\s+${num}(?:\\s*/\\s*${num})?\\s*\\)`, 'g');
  return value.replace(pattern, (_match, r: string, g: string, b: string, a: string | undefined) => {
    const rgb = [r, g, b].map(c => (c === 'none' ? 0 : channel(c))).join(', ');
    if (a === undefined || a === 'none' || alpha(a) === 1) {
      return `rgb(${rgb})`;
    }
    return `rgba(${rgb}, ${Number(alpha(a).toFixed(4))})`;
  });
}

/** Whether a colour paints nothing. */
function isTransparent(colour: string): boolean {
  return colour === 'transparent' || colour === 'none' || /^rgba\(.*,\s*0(\.0*)?\)$/.test(colour);
}

/** The page's computed style of an element. */
function computedStyleOf(el: Element): CSSStyleDeclaration {
  return (el.ownerDocument.defaultView ?? window).getComputedStyle(el);
}

/** The largest canvas side and area drawn (browsers refuse bigger canvases). */
export const MAX_CANVAS_SIDE = 16384;
export const MAX_CANVAS_AREA = 64 * 1024 * 1024;

/**
 * The scale a picture of `width` x `height` CSS pixels is drawn at: `wanted`, less when the canvas would
 * exceed what browsers allow.
 */
export function pngScale(width: number, height: number, wanted: number): number {
  if (!(width > 0 && height > 0)) {
    return wanted;
  }
  return Math.min(
    wanted,
    MAX_CANVAS_SIDE / width,
    MAX_CANVAS_SIDE / height,
    Math.sqrt(MAX_CANVAS_AREA / (width * height))
  );
}

/**
 * The file name of an exported graph: `graph_<compile id>_<kind>.<ext>` (`graph_0_1_dynamo.svg` for the
 * dynamo graph of [0/1]; `graph_export_export.svg` for an exported program's), with the graph id appended when its
 * frame has several graphs drawn.
 */
export function exportFileName(graph: Graph, siblings: number, ext: 'svg' | 'png'): string {
  const compileId = (graph.compile_id ?? 'export').replace(/[^A-Za-z0-9]+/g, '_');
  const kind = graph.kind.replace(/[^A-Za-z0-9_-]+/g, '_');
  return `graph_${compileId}_${kind}${siblings > 1 ? `_${graph.id}` : ''}.${ext}`;
}

/**
 * Draw a standalone SVG onto a canvas at `scale` (clamped by `pngScale`) and encode it as PNG.
 */
export async function svgToPng(svgText: string, scale: number, doc: Document = document): Promise<Blob> {
  const url = URL.createObjectURL(new Blob([svgText], { type: 'image/svg+xml' }));
  try {
    const img = new Image();
    await new Promise<void>((resolve, reject) => {
      img.addEventListener('load', () => resolve(), { once: true });
      img.addEventListener('error', () => reject(new Error('the browser could not load the SVG')), { once: true });
      img.src = url;
    });
    const width = img.naturalWidth || img.width;
    const height = img.naturalHeight || img.height;
    const s = pngScale(width, height, scale);
    const canvas = doc.createElement('canvas');
    canvas.width = Math.max(1, Math.round(width * s));
    canvas.height = Math.max(1, Math.round(height * s));
    const context = canvas.getContext('2d');
    if (!context) {
      throw new Error('no 2D canvas');
    }
    context.drawImage(img, 0, 0, canvas.width, canvas.height);
    return await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob(blob => (blob ? resolve(blob) : reject(new Error('the canvas could not be encoded'))), 'image/png')
    );
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** How long a download's object URL is kept (the browser reads it after the click returns). */
const REVOKE_AFTER_MS = 40_000;

/**
 * Save a blob as a file through a temporary `<a download>` (the browser's download, no server involved).
 */
export function downloadBlob(blob: Blob, filename: string, doc: Document = document): void {
  const url = URL.createObjectURL(blob);
  const link = h('a', { attrs: { href: url, download: filename } });
  link.hidden = true;
  (doc.body ?? doc.documentElement).appendChild(link);
  try {
    link.click();
  } finally {
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), REVOKE_AFTER_MS);
  }
}
