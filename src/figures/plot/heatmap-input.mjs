// Reading a heatmap's cells: the pointer (hover, touch) or the keyboard (arrow keys move a cursor cell by cell,
// Home/End jump to the row's ends, Page Up/Down to the column's) puts a cursor on a cell and reads it out.
import { pointerAt } from './frame.mjs';

/** The cell under a pointer event, or null outside the cells. */
function cellAt(state, event) {
  const plot = state.layout.plot;
  if (!plot) return null;
  const { x, y } = pointerAt(state.canvas, event);
  const { rows, cols } = state.options;
  const col = Math.floor(((x - plot.x) / plot.w) * cols);
  const row = Math.floor(((y - plot.y) / plot.h) * rows);
  if (col < 0 || row < 0 || col >= cols || row >= rows) return null;
  return { row, col };
}

/** Where a key moves the cursor from `at` in a rows × cols grid (the first key lands on the first cell). */
function moved(key, at, rows, cols) {
  if (!at) return { row: 0, col: 0 };
  const moves = {
    ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1],
    Home: [0, -cols], End: [0, cols], PageUp: [-rows, 0], PageDown: [rows, 0],
  };
  const [dr, dc] = moves[key];
  return { row: Math.min(rows - 1, Math.max(0, at.row + dr)), col: Math.min(cols - 1, Math.max(0, at.col + dc)) };
}

const KEYS = new Set(['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End', 'PageUp', 'PageDown']);

/**
 * Wires the pointer and the keys of a heatmap's state (frame.mjs): state.cursor becomes { row, col }, and each move
 * calls showCell(row, col, { announce }) once the next frame has drawn the cursor.
 */
export function heatmapInput(state, showCell) {
  const { canvas } = state;
  const onPointer = (event) => {
    const cell = cellAt(state, event);
    state.keyboard = false;
    if (!cell) {
      if (state.cursor) state.clear();
      return;
    }
    if (state.cursor?.row !== cell.row || state.cursor?.col !== cell.col) {
      state.cursor = cell;
      state.schedule();
    }
    showCell(cell.row, cell.col, { announce: false });
  };
  canvas.addEventListener('pointermove', onPointer);
  canvas.addEventListener('pointerdown', onPointer);
  state.onKey = (key) => {
    if (!KEYS.has(key)) return false;
    const { rows, cols } = state.options;
    if (!(rows > 0 && cols > 0)) return false;
    state.cursor = moved(key, state.cursor, rows, cols);
    state.readPending = true;
    return true;
  };
}
