// Dragging tiles with the mouse, a pen or a finger (pointer events). A press that does not move is a
// click and is left to the click handlers; past a few pixels the tile follows the pointer and, on
// release, `drop(source, target)` is called with the element under the pointer.

const THRESHOLD_PX = 5;

/**
 * Make the elements matching `selector` inside `root` draggable. `drop(source, targetElement)` gets
 * the dragged element and the element under the pointer at release (null outside the window).
 * `over(targetElement)` is called as the pointer moves, to highlight the drop target.
 */
export function enableDrag(root, selector, { drop, over }) {
  let drag = null;
  // The click that the browser sends right after a drag's release (in the same task) is not a click
  // on a tile or a square.
  let swallowClick = false;
  root.addEventListener("click", (event) => {
    if (swallowClick) event.stopPropagation();
  }, { capture: true });

  root.addEventListener("pointerdown", (event) => {
    const source = event.target.closest(selector);
    if (!source || event.button !== 0 || source.getAttribute("aria-disabled") === "true") return;
    drag = { source, pointerId: event.pointerId, x: event.clientX, y: event.clientY, ghost: null };
  });

  root.addEventListener("pointermove", (event) => {
    if (!drag || event.pointerId !== drag.pointerId) return;
    if (!drag.ghost) {
      if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < THRESHOLD_PX) return;
      drag.ghost = startGhost(drag.source, event);
      drag.source.setPointerCapture?.(event.pointerId);
    }
    event.preventDefault();
    moveGhost(drag.ghost, event);
    over(targetAt(event));
  });

  const finish = (event, cancelled) => {
    if (!drag || event.pointerId !== drag.pointerId) return;
    const { source, ghost } = drag;
    drag = null;
    if (!ghost) return;
    ghost.remove();
    source.classList.remove("dragging");
    over(null);
    swallowClick = true;
    setTimeout(() => {
      swallowClick = false;
    }, 0);
    if (!cancelled) drop(source, targetAt(event));
  };
  root.addEventListener("pointerup", (event) => finish(event, false));
  root.addEventListener("pointercancel", (event) => finish(event, true));
}

function targetAt(event) {
  return document.elementFromPoint(event.clientX, event.clientY);
}

function startGhost(source, event) {
  const box = source.getBoundingClientRect();
  const ghost = source.cloneNode(true);
  ghost.removeAttribute("id");
  ghost.classList.add("drag-ghost");
  ghost.setAttribute("aria-hidden", "true");
  ghost.style.width = `${box.width}px`;
  ghost.style.height = `${box.height}px`;
  ghost.style.setProperty("--cell", `${box.width}px`);
  ghost.dataset.dx = String(event.clientX - box.left);
  ghost.dataset.dy = String(event.clientY - box.top);
  document.body.append(ghost);
  source.classList.add("dragging");
  return ghost;
}

function moveGhost(ghost, event) {
  ghost.style.left = `${event.clientX - Number(ghost.dataset.dx)}px`;
  ghost.style.top = `${event.clientY - Number(ghost.dataset.dy)}px`;
}
