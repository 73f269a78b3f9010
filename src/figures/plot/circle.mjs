// Points on the unit circle (cos across, sin up), each with an optional trail: a sine/cosine pair as the point it
// traces. The axis names sit outside the circle, clear of any point. Read by pointer or keyboard (arrow keys step
// from point to point).
import { fmt } from '../format.mjs';
import { seriesColor, themeColors } from './colors.mjs';
import { legendItems, makePlot, pointerAt } from './frame.mjs';
import { checkCircle, checkObject } from './options.mjs';
import { labelWriter } from './ticks.mjs';

const KEYS = new Set(['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End']);
const DOT = 6;

/**
 * @param {Element} container
 * @param {object} options
 * @param {{ name: string, x: number, y: number, trail?: [number, number][], color?: string }[]} options.points
 * @param {number} [options.height=240]
 * @param {string} [options.ariaLabel]
 * @param {string} [options.caption]
 * @returns the plot handle (frame.mjs); layout() also holds each point's centre (dots) for tests
 */
export function circlePlot(container, options) {
  checkObject(options);
  const { state, handle } = makePlot(container, { height: 240, points: [], ...options }, draw,
    { className: 'plot-circle', kind: 'circle plot', check: checkCircle });
  state.onUpdate = () => {
    if (state.cursor) state.readPending = true;
  };

  function draw(ctx, width, height) {
    const colors = themeColors(state.figure);
    // Room around the circle for the axis ends (10 px) and their names (about 14 px).
    const r = Math.max(20, Math.min(width / 2 - 44, height / 2 - 26));
    const cx = width / 2;
    const cy = height / 2;
    const at = (p) => [cx + p.x * r, cy - p.y * r];
    state.layout = { cx, cy, r, labels: [], dots: [] };
    const text = labelWriter(ctx, state.layout.labels);
    ctx.strokeStyle = colors.grid;
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.moveTo(cx - r - 10, cy);
    ctx.lineTo(cx + r + 10, cy);
    ctx.moveTo(cx, cy - r - 10);
    ctx.lineTo(cx, cy + r + 10);
    ctx.stroke();
    ctx.strokeStyle = colors.muted;
    ctx.beginPath();
    ctx.arc(cx, cy, r, 0, 2 * Math.PI);
    ctx.stroke();
    ctx.fillStyle = colors.muted;
    text('axis', 'cos', cx + r + 13, cy, { align: 'left' });
    text('axis', 'sin', cx, cy - r - 12, { align: 'center', baseline: 'bottom' });
    state.options.points.forEach((p, i) => {
      const color = seriesColor(state.figure, p, i);
      if (p.trail?.length) {
        ctx.strokeStyle = color;
        ctx.fillStyle = color;
        ctx.globalAlpha = 0.45;
        ctx.lineWidth = 1.5;
        ctx.beginPath();
        p.trail.forEach(([x, y], j) => (j === 0 ? ctx.moveTo(...at({ x, y })) : ctx.lineTo(...at({ x, y }))));
        ctx.stroke();
        ctx.globalAlpha = 1;
        for (const [x, y] of p.trail) {
          ctx.beginPath();
          ctx.arc(...at({ x, y }), 2, 0, 2 * Math.PI);
          ctx.fill();
        }
      }
      const [x, y] = at(p);
      state.layout.dots.push({ x, y, r: DOT });
      ctx.fillStyle = color;
      ctx.strokeStyle = state.cursor?.index === i ? colors.fg : colors.panel;
      ctx.lineWidth = state.cursor?.index === i ? 3 : 1.5;
      ctx.beginPath();
      ctx.arc(x, y, DOT, 0, 2 * Math.PI);
      ctx.fill();
      ctx.stroke();
    });
    legendItems(state.legend, state.options.points.map((p, i) => ({ label: p.name, color: seriesColor(state.figure, p, i) })));
    if (state.cursor && state.readPending) {
      state.readPending = false;
      read(state.cursor.index);
    }
  }

  function read(index) {
    const p = state.options.points[index];
    const dot = state.layout.dots[index];
    if (!p || !dot) return;
    const angle = Math.atan2(p.y, p.x);
    state.read(`${p.name}\nangle ${fmt(angle, 4)} rad: cos ${fmt(p.x, 4)}, sin ${fmt(p.y, 4)}`, dot.x, dot.y, { announce: state.keyboard });
  }

  state.canvas.addEventListener('pointermove', (event) => {
    const { x, y } = pointerAt(state.canvas, event);
    let best = -1;
    let bestD = 12;
    state.layout.dots?.forEach((d, i) => {
      const dist = Math.hypot(d.x - x, d.y - y);
      if (dist < bestD) [best, bestD] = [i, dist];
    });
    state.keyboard = false;
    if (best < 0) {
      if (state.cursor) state.clear();
      return;
    }
    state.cursor = { index: best };
    read(best);
    state.schedule();
  });

  state.onKey = (key) => {
    const n = state.options.points.length;
    if (!KEYS.has(key) || n === 0) return false;
    const i = state.cursor?.index;
    const next = { Home: 0, End: n - 1 }[key]
      ?? (i === undefined ? 0 : (i + (key === 'ArrowLeft' || key === 'ArrowDown' ? n - 1 : 1)) % n);
    state.cursor = { index: next };
    state.readPending = true;
    return true;
  };
  return handle;
}
