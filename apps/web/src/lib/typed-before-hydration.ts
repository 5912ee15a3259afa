import { useLayoutEffect } from 'react';

/**
 * What a visitor typed or ticked in the server's HTML before the script had taken over. Hydrating
 * keeps what the inputs show, but the form state behind them is empty, and the next render puts
 * that back into the controlled inputs, wiping it. So once the hydrated tree is committed (and
 * before any re-render), what differs from the HTML is read and played back as input events,
 * through the same handlers (and the same normalising) as typing.
 */
export interface TypedInput {
  element: HTMLInputElement | HTMLTextAreaElement;
  value: string;
  checked: boolean;
}

/** The inputs in `container` whose value or tick differs from the HTML's (their default). */
export function captureTyped(container: HTMLElement): TypedInput[] {
  const out: TypedInput[] = [];
  for (const element of container.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input, textarea')) {
    const checkable = element instanceof HTMLInputElement && (element.type === 'checkbox' || element.type === 'radio');
    const changed = checkable ? element.checked !== element.defaultChecked : element.value !== element.defaultValue;
    if (changed) out.push({ element, value: element.value, checked: checkable && element.checked });
  }
  return out;
}

function replay({ element, value, checked }: TypedInput): void {
  if (!element.isConnected) return;
  if (element instanceof HTMLInputElement && (element.type === 'checkbox' || element.type === 'radio')) {
    // Set the opposite through the element (React's change tracking sees it), then click.
    element.checked = !checked;
    element.click();
    return;
  }
  const proto = element instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  // eslint-disable-next-line @typescript-eslint/unbound-method -- the native setter, called on the element below
  const setNative = Object.getOwnPropertyDescriptor(proto, 'value')?.set;
  // Empty through the element first, so that the typed value below counts as a change.
  element.value = '';
  setNative?.call(element, value);
  element.dispatchEvent(new Event('input', { bubbles: true }));
}

/**
 * Rendered after the page, inside the Suspense boundary around it (React hydrates a boundary's
 * content in a pass of its own, after the shell): its layout effect runs when the page's inputs
 * have just been hydrated. It stays mounted across navigations, so it plays back once.
 */
export function ReplayTyped({ containerId }: { containerId: string }) {
  useLayoutEffect(() => {
    const container = document.getElementById(containerId);
    if (container) captureTyped(container).forEach(replay);
  }, [containerId]);
  return null;
}
