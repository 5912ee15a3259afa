import { PHOTO_SPEC } from '@zhikaoyun/shared';
import { Button, Modal, Slider } from 'antd';
import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { clampView, coverView, cropToJpeg, type CropView } from '../lib/photo';

/** The crop frame on screen: the office's ratio (295×413), sized for a phone. */
const FRAME = { width: 236, height: Math.round((236 * PHOTO_SPEC.height) / PHOTO_SPEC.width) };
const MAX_ZOOM = 4;

/**
 * Crops a chosen picture to the office's ID-photo ratio: the picture fills the frame, the
 * candidate drags it and zooms until the head sits in the guide, and the frame's part is sent.
 */
export default function PhotoCropDialog({
  image,
  onCancel,
  onCropped,
}: {
  image: ImageBitmap;
  onCancel: () => void;
  onCropped: (jpeg: Blob) => Promise<void>;
}) {
  // A state, not a ref: the dialog mounts its content after this component, and the picture is
  // drawn once the canvas exists.
  const [canvas, setCanvas] = useState<HTMLCanvasElement | null>(null);
  const cover = coverView(image, FRAME);
  const [view, setView] = useState<CropView>(cover);
  const [busy, setBusy] = useState(false);
  const drag = useRef<{ x: number; y: number; view: CropView } | null>(null);

  useEffect(() => {
    const ctx = canvas?.getContext('2d');
    if (!ctx) return;
    const ratio = window.devicePixelRatio || 1;
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, FRAME.width, FRAME.height);
    ctx.drawImage(image, view.x, view.y, image.width * view.scale, image.height * view.scale);
  }, [canvas, image, view]);

  const zoom = view.scale / cover.scale;
  function zoomTo(z: number) {
    // Zoom about the frame's centre, so the face stays where the candidate put it.
    const cx = FRAME.width / 2;
    const cy = FRAME.height / 2;
    const scale = cover.scale * z;
    const k = scale / view.scale;
    setView(clampView({ scale, x: cx - (cx - view.x) * k, y: cy - (cy - view.y) * k }, image, FRAME));
  }
  function onPointerDown(e: PointerEvent<HTMLDivElement>) {
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { x: e.clientX, y: e.clientY, view };
  }
  function onPointerMove(e: PointerEvent<HTMLDivElement>) {
    const d = drag.current;
    if (!d) return;
    setView(clampView({ ...d.view, x: d.view.x + e.clientX - d.x, y: d.view.y + e.clientY - d.y }, image, FRAME));
  }

  /** Dragging by the keyboard (WCAG 2.1.1): the arrows move the picture 8 px, with Shift 32 px. */
  const ARROWS: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  function onKeyDown(e: KeyboardEvent<HTMLDivElement>) {
    const step = ARROWS[e.key];
    if (!step) return;
    e.preventDefault();
    const d = e.shiftKey ? 32 : 8;
    setView(clampView({ ...view, x: view.x + step[0] * d, y: view.y + step[1] * d }, image, FRAME));
  }

  async function confirm() {
    setBusy(true);
    try {
      await onCropped(await cropToJpeg(image, view, FRAME));
    } finally {
      setBusy(false);
    }
  }

  const ratio = typeof window === 'undefined' ? 1 : window.devicePixelRatio || 1;
  return (
    <Modal
      open
      title="调整证件照"
      onCancel={onCancel}
      width={360}
      centered
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={onCancel} disabled={busy}>
          重新选择
        </Button>,
        <Button key="ok" type="primary" loading={busy} onClick={() => void confirm()}>
          使用此照片
        </Button>,
      ]}
    >
      <p className="photo-crop__hint">拖动照片、调整缩放，使头部位于虚线框内，肩部与底边平齐。</p>
      <div
        className="photo-crop__frame"
        style={{ width: FRAME.width, height: FRAME.height }}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={() => (drag.current = null)}
        onPointerCancel={() => (drag.current = null)}
        onKeyDown={onKeyDown}
        tabIndex={0}
        role="img"
        aria-label={`证件照裁剪预览（${PHOTO_SPEC.width}×${PHOTO_SPEC.height} 比例），可用方向键移动照片`}
      >
        <canvas
          ref={setCanvas}
          width={FRAME.width * ratio}
          height={FRAME.height * ratio}
          style={{ width: FRAME.width, height: FRAME.height }}
        />
        <svg className="photo-crop__guide" viewBox={`0 0 ${FRAME.width} ${FRAME.height}`} aria-hidden>
          <ellipse cx={FRAME.width / 2} cy={FRAME.height * 0.4} rx={FRAME.width * 0.27} ry={FRAME.height * 0.25} />
          <line x1={FRAME.width * 0.1} x2={FRAME.width * 0.9} y1={FRAME.height * 0.86} y2={FRAME.height * 0.86} />
        </svg>
      </div>
      <div className="photo-crop__zoom">
        <span>缩放</span>
        <Slider min={1} max={MAX_ZOOM} step={0.05} value={zoom} onChange={zoomTo} ariaLabelForHandle="缩放" tooltip={{ open: false }} />
      </div>
    </Modal>
  );
}
