/** QR codes as Chromium draws them, for reading back with an independent decoder (jsQR). */

/** Draws the SVG as the browser renders it on a white canvas, `scale` px a module. */
export async function rasterise(svg: SVGSVGElement, scale: number): Promise<{ ctx: CanvasRenderingContext2D; side: number; modules: number }> {
  const modules = Number(svg.getAttribute('viewBox')!.split(' ')[2]);
  const side = modules * scale;
  const clone = svg.cloneNode(true) as SVGSVGElement;
  clone.setAttribute('width', String(side));
  clone.setAttribute('height', String(side));
  clone.setAttribute('color', '#141414');
  const img = new Image();
  img.src = 'data:image/svg+xml,' + encodeURIComponent(new XMLSerializer().serializeToString(clone));
  await img.decode();
  const canvas = document.createElement('canvas');
  canvas.width = canvas.height = side;
  const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, side, side);
  ctx.drawImage(img, 0, 0, side, side);
  return { ctx, side, modules };
}
