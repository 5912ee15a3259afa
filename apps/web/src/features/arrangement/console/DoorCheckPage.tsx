import { CameraOutlined, CheckCircleFilled, CloseCircleFilled, StopOutlined } from '@ant-design/icons';
import type { VerifiedTicket } from '@zhikaoyun/shared';
import { Button, Card, Input, Space } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useExamParam } from '../../../components/console/console-exams';
import { ConsoleExamPicker } from '../../../components/console/ConsoleExamPicker';
import { useVerifyTicket } from './api';
import './door-check.css';

/** The browser's barcode reader (Chrome on Android, Safari 17+); not in TypeScript's DOM types yet. */
interface BarcodeDetectorLike {
  detect(source: HTMLVideoElement): Promise<{ rawValue: string }[]>;
}
type BarcodeDetectorClass = new (options: { formats: string[] }) => BarcodeDetectorLike;

function barcodeDetector(): BarcodeDetectorClass | undefined {
  const ctor = (globalThis as { BarcodeDetector?: BarcodeDetectorClass }).BarcodeDetector;
  return ctor && typeof navigator.mediaDevices?.getUserMedia === 'function' ? ctor : undefined;
}

type Outcome = { ok: true; ticket: VerifiedTicket } | { ok: false; msg: string };

/**
 * 验证准考证 at the room door, made for a phone: the camera reads the ticket's QR code where the
 * browser can (BarcodeDetector), otherwise the code is pasted or typed. Shows the photo, name and
 * place to compare with the person, or the refusal in large type. Every check is audited.
 */
export default function DoorCheckPage() {
  const { examId, exams, chooseExam } = useExamParam();
  const verify = useVerifyTicket();
  const [code, setCode] = useState('');
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [scanning, setScanning] = useState(false);
  const [cameraError, setCameraError] = useState('');
  const video = useRef<HTMLVideoElement>(null);
  const stream = useRef<MediaStream | null>(null);
  const Detector = barcodeDetector();

  const check = useCallback(
    (text: string) => {
      const value = text.trim();
      if (!value) return;
      setOutcome(null);
      verify.mutate(
        { code: value, ...(examId !== undefined ? { examId } : {}) },
        {
          onSuccess: (ticket) => setOutcome({ ok: true, ticket }),
          onError: (err) => setOutcome({ ok: false, msg: err instanceof Error && err.message ? err.message : '核验失败，请重试' }),
        },
      );
    },
    [examId, verify],
  );

  const stop = useCallback(() => {
    stream.current?.getTracks().forEach((t) => t.stop());
    stream.current = null;
    setScanning(false);
  }, []);
  useEffect(() => stop, [stop]);

  // While the camera runs, look for a code a few times a second; the first one found is checked.
  useEffect(() => {
    if (!scanning || !Detector) return;
    const detector = new Detector({ formats: ['qr_code'] });
    let timer: ReturnType<typeof setTimeout> | undefined;
    let done = false;
    const look = async () => {
      const el = video.current;
      if (done || !el) return;
      if (el.readyState >= 2) {
        const found = await detector.detect(el).catch(() => []);
        const value = found[0]?.rawValue;
        if (value && !done) {
          done = true;
          setCode(value);
          stop();
          check(value);
          return;
        }
      }
      timer = setTimeout(() => void look(), 250);
    };
    void look();
    return () => {
      done = true;
      if (timer) clearTimeout(timer);
    };
  }, [scanning, Detector, stop, check]);

  const start = async () => {
    setCameraError('');
    setOutcome(null);
    try {
      const media = await navigator.mediaDevices.getUserMedia({ video: { facingMode: 'environment' }, audio: false });
      stream.current = media;
      setScanning(true);
      // The video element renders with `scanning`; attach on the next frame.
      requestAnimationFrame(() => {
        if (video.current) {
          video.current.srcObject = media;
          void video.current.play().catch(() => undefined);
        }
      });
    } catch {
      setCameraError('无法打开摄像头：请允许浏览器使用摄像头，或在下方粘贴二维码内容');
    }
  };

  return (
    <div className="door-check">
      <div className="console-toolbar">
        <h2 className="console-title">验证准考证</h2>
        <ConsoleExamPicker exams={exams.data} loading={exams.isLoading} value={examId} onChange={chooseExam} />
      </div>
      <p className="console-hint">
        扫描准考证上的二维码（“入场核验码”），核对照片与本人。只认本考试的准考证；伪造或改动过的二维码会被拒绝。
      </p>

      {Detector ? (
        <Card size="small" style={{ marginBottom: 12 }}>
          {scanning ? (
            <Space direction="vertical" style={{ width: '100%' }}>
              <video ref={video} className="door-check__video" muted playsInline aria-label="摄像头画面" />
              <Button block size="large" icon={<StopOutlined />} onClick={stop}>
                停止扫码
              </Button>
            </Space>
          ) : (
            <Button block size="large" type="primary" icon={<CameraOutlined />} onClick={() => void start()}>
              用摄像头扫码
            </Button>
          )}
          {cameraError && <p className="door-check__error">{cameraError}</p>}
        </Card>
      ) : (
        <p className="console-hint">此浏览器不能直接识别二维码：请用扫码枪或其他扫码工具读取后粘贴到下方。</p>
      )}

      <Card size="small" style={{ marginBottom: 12 }}>
        <Space.Compact style={{ width: '100%' }}>
          <Input
            aria-label="二维码内容"
            size="large"
            placeholder="粘贴或输入二维码内容（ZK1.…）"
            value={code}
            onChange={(e) => setCode(e.target.value)}
            onPressEnter={() => check(code)}
            allowClear
          />
          <Button size="large" type="primary" loading={verify.isPending} onClick={() => check(code)}>
            核验
          </Button>
        </Space.Compact>
      </Card>

      {outcome?.ok === true && (
        <Card className="door-check__result door-check__result--ok" size="small">
          <div className="door-check__status">
            <CheckCircleFilled /> 准考证有效
          </div>
          <div className="door-check__body">
            {outcome.ticket.photo ? (
              <img className="door-check__photo" src={outcome.ticket.photo} alt={`${outcome.ticket.name}的照片`} />
            ) : (
              <div className="door-check__photo door-check__photo--none">无照片</div>
            )}
            <dl className="door-check__facts">
              <dt>姓名</dt>
              <dd className="door-check__name">{outcome.ticket.name}</dd>
              <dt>准考证号</dt>
              <dd>{outcome.ticket.ticketNo}</dd>
              <dt>考点</dt>
              <dd>{outcome.ticket.site}</dd>
              <dt>考场 / 座位</dt>
              <dd className="door-check__place">
                第 {outcome.ticket.room} 考场 · {String(outcome.ticket.seat).padStart(2, '0')} 号
              </dd>
            </dl>
          </div>
        </Card>
      )}
      {outcome?.ok === false && (
        <Card className="door-check__result door-check__result--refused" size="small" role="alert">
          <div className="door-check__status">
            <CloseCircleFilled /> 未通过核验
          </div>
          <p className="door-check__reason">{outcome.msg}</p>
        </Card>
      )}
    </div>
  );
}
