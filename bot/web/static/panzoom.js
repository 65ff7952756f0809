// Panning and zooming the board inside its area: drag with one pointer (mouse, pen or finger) on the
// board to pan, pinch with two fingers or Ctrl + wheel to zoom. A press that does not move is left to
// the click handlers; tiles being placed keep their own drag (drag.js).

const THRESHOLD_PX = 5;
const MAX_ZOOM = 4;

export class PanZoom {
  constructor(viewport, { ignore }) {
    this.viewport = viewport;
    this.zoom = 1;
    this.least = 1;
    this.pointers = new Map(); // pointerId -> {x, y}
    this.panning = null;
    this.pinch = null;
    this.swallowClick = false;
    viewport.addEventListener("pointerdown", (event) => {
      if (event.target.closest(ignore) || (event.pointerType === "mouse" && event.button !== 0)) return;
      this.pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
      if (this.pointers.size === 1) {
        this.panning = { x: event.clientX, y: event.clientY, left: viewport.scrollLeft, top: viewport.scrollTop, moved: false };
      } else if (this.pointers.size === 2) {
        this.panning = null;
        this.pinch = { distance: this.distance(), zoom: this.zoom };
      }
    });
    viewport.addEventListener("pointermove", (event) => {
      if (!this.pointers.has(event.pointerId)) return;
      this.pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
      if (this.pinch && this.pointers.size === 2) {
        event.preventDefault();
        const [a, b] = [...this.pointers.values()];
        this.zoomTo(this.pinch.zoom * (this.distance() / this.pinch.distance), (a.x + b.x) / 2, (a.y + b.y) / 2);
        return;
      }
      const pan = this.panning;
      if (!pan) return;
      const dx = event.clientX - pan.x;
      const dy = event.clientY - pan.y;
      if (!pan.moved && Math.hypot(dx, dy) < THRESHOLD_PX) return;
      if (!pan.moved) viewport.setPointerCapture?.(event.pointerId);
      pan.moved = true;
      event.preventDefault();
      viewport.scrollLeft = pan.left - dx;
      viewport.scrollTop = pan.top - dy;
    });
    const release = (event) => {
      if (!this.pointers.delete(event.pointerId)) return;
      if (this.panning?.moved || this.pinch) {
        this.swallowClick = true;
        setTimeout(() => {
          this.swallowClick = false;
        }, 0);
      }
      if (this.pointers.size < 2) this.pinch = null;
      if (this.pointers.size === 0) this.panning = null;
    };
    viewport.addEventListener("pointerup", release);
    viewport.addEventListener("pointercancel", release);
    viewport.addEventListener("click", (event) => {
      if (this.swallowClick) event.stopPropagation();
    }, { capture: true });
    viewport.addEventListener("wheel", (event) => {
      if (!event.ctrlKey) return;
      event.preventDefault();
      this.zoomTo(this.zoom * Math.exp(-event.deltaY / 300), event.clientX, event.clientY);
    }, { passive: false });
  }

  distance() {
    const [a, b] = [...this.pointers.values()];
    return Math.max(1, Math.hypot(a.x - b.x, a.y - b.y));
  }

  /** The fewest squares a side of the area shows at zoom 1 decide the least zoom: `least` (>= 1). */
  setLeast(least) {
    if (least === this.least) return;
    const ratio = this.zoom / this.least;
    this.least = least;
    this.apply(least * ratio);
  }

  /** Zoom to `zoom` (kept between the least zoom and MAX_ZOOM times it), keeping the board point under
   * the screen point (x, y) where it is. */
  zoomTo(zoom, x, y) {
    const box = this.viewport.getBoundingClientRect();
    const px = x - box.left;
    const py = y - box.top;
    const before = this.zoom;
    this.apply(zoom);
    const ratio = this.zoom / before;
    this.viewport.scrollLeft = (this.viewport.scrollLeft + px) * ratio - px;
    this.viewport.scrollTop = (this.viewport.scrollTop + py) * ratio - py;
  }

  apply(zoom) {
    this.zoom = Math.min(this.least * MAX_ZOOM, Math.max(this.least, zoom));
    this.viewport.style.setProperty("--zoom", String(this.zoom));
    this.viewport.classList.toggle("zoomed", this.zoom > 1);
  }

  /** Scroll so that the middle of `elements` (squares) is in the middle of the area. */
  centreOn(elements) {
    if (!elements.length) return;
    const area = this.viewport.getBoundingClientRect();
    const boxes = elements.map((element) => element.getBoundingClientRect());
    const x = (Math.min(...boxes.map((b) => b.left)) + Math.max(...boxes.map((b) => b.right))) / 2;
    const y = (Math.min(...boxes.map((b) => b.top)) + Math.max(...boxes.map((b) => b.bottom))) / 2;
    this.viewport.scrollLeft += x - (area.left + area.width / 2);
    this.viewport.scrollTop += y - (area.top + area.height / 2);
  }
}
