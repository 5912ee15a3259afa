import { lazy, Suspense, useEffect, useState } from 'react';
import { onFeedbackLoadRequest } from './feedback';

const FeedbackLayer = lazy(() => import('./feedback-layer'));
const FIRST_USE = ['pointerdown', 'keydown', 'focusin'] as const;

/**
 * antd's message, notification and dialog holders (with antd's theme, a good part of antd's
 * weight) load after the first paint: on the first tap, key or focus, or on the first call
 * (lib/feedback.ts). The server and hydration render none, so the HTML matches.
 */
export function FeedbackHoldersSlot() {
  const [load, setLoad] = useState(false);
  useEffect(() => {
    const start = () => setLoad(true);
    onFeedbackLoadRequest(start);
    for (const type of FIRST_USE) window.addEventListener(type, start, { once: true, capture: true, passive: true });
    return () => {
      for (const type of FIRST_USE) window.removeEventListener(type, start, { capture: true });
    };
  }, []);
  return <Suspense fallback={null}>{load && <FeedbackLayer />}</Suspense>;
}
