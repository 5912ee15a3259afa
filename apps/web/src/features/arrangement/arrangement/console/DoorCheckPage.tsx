import { CameraOutlined, CheckCircleFilled, CloseCircleFilled, StopOutlined, WarningFilled } from '@ant-design/icons';
import { DOOR_CHECK_TEXT, identityVerified, type VerifiedTicket } from '@zhikaoyun/shared';
import { Button, Card, Input, Space } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useExamParam } from '../../../../components/console/console-exams';
import { ConsoleExamPicker } from '../../../../components/console/ConsoleExamPicker';
import { intParam, useUrlParams } from '../../../../components/console/url-state';
import { formatDate, formatDateTime } from '../../../../components/format';
import { useDoorCheckExam, useVerifyTicket } from './api';
import { createQrReader } from './qr-reader';
import './door-check.css';

type Outcome = { ok: true; ticket: VerifiedTicket } | { ok: false; msg: string };

const canUseCamera = () => typeof navigator !== 'undefined' && typeof navigator.mediaDevices?.getUserMedia === 'function';

/** 09:02 today, 2026-12-20 09:02 another day (the office's clock). */
function when(iso: string): string {
  const at = formatDateTime(iso);
  return formatDate(new Date().toISOString()) === formatDate(iso) ? at.slice(11) : at;
}

/** The paper at this door: 公共基础知识 09:00–11:00 (now, or next today). */
function PaperLine({ paper }: { paper: VerifiedTicket['paper'] }) {
  if (!paper) return <dd className="door-check__paper door-check__paper--none">今天没有该考生的考试科目，请核对考试日期</dd>;
  const started = new Date(paper.startAt).getTime() <= Date.now();
  return (
    <dd className="door-check__paper">
      {started ? '正在考试' : '下一科目'}：{paper.name}（{when(paper.startAt)}–{when(paper.endAt)}）
    </dd>
  );
}

/** One identity check as door staff read it: 通过 in green, 待核验 in orange, 未通过 in red. */
function CheckLine({ label, status }: { label: string; status: keyof typeof DOOR_CHECK_TEXT }) {
  const tone = status === 'passed' ? 'passed' : status === 'failed' ? 'failed' : 'pending';
  return (
    <>
      <dt>{label}</dt>
      <dd className={`door-check__check door-check__check--${tone}`}>{DOOR_CHECK_TEXT[status]}</dd>
    </>
  );
}

/**
 * 验证准考证 at the room door, made for a phone. It opens on the exam with a paper today (else
 * the next one with tickets). The camera reads the ticket's QR code in the page (the browser's
 * reader where there is one, else a JavaScript decoder: every phone browser), or the code is
 * pasted or typed. Shows the photo, name, room and seat and the paper under way to compare with
 * the person; a ticket already checked in for this paper is shown in red with the first time.
 * Every check is recorded and audited.
 */
export default function DoorCheckPage() {
  const { examId: pageExamId, exams, chooseExam } = useExamParam();
  const [params] = useUrlParams();
  const asked = intParam(params, 'examId');
  const today = useDoorCheckExam(asked === undefined);
  // A link or a choice names the exam; otherwise the exam of the day, else the console's default.
  const examId = asked !== undefined ? pageExamId : today.isPending ? undefined : (today.data?.examId ?? pageExamId);
  const verify = useVerifyTicket();
  const [code, setCode] = useState('');
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [scanning, setScanning] = useState(false);
  const [cameraError, setCameraError] = useState('');
  const video = useRef<HTMLVideoElement>(null);
  const stream = useRef<MediaStream | null>(null);
  const camera = canUseCamera();

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
    if (!scanning) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let done = false;
    void (async () => {
      let reader;
      try {
        reader = await createQrReader();
      } catch {
        setCameraError('扫码组件加载失败：请检查网络后重试，或在下方粘贴二维码内容');
        stop();
        return;
      }
      const look = async () => {
        const el = video.current;
        if (done || !el) return;
        if (el.readyState >= 2) {
          const value = await reader.read(el).catch(() => null);
          if (value && !done) {
            done = true;
            setCode(value);
            stop();
            check(value);
            return;
          }
        }
        timer = setTimeout(() => void look(), 200);
      };
      await look();
    })();
    return () => {
      done = true;
      if (timer) clearTimeout(timer);
    };
  }, [scanning, stop, check]);

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

  const t = outcome?.ok === true ? outcome.ticket : null;
  return (
    <div className="door-check">
      <div className="console-toolbar">
        <h2 className="console-title">验证准考证</h2>
        <ConsoleExamPicker exams={exams.data} loading={exams.isLoading || today.isLoading} value={examId} onChange={chooseExam} />
      </div>
      <p className="console-hint">
        扫描准考证上的二维码（“入场核验码”），核对照片与本人。只认本考试的准考证；伪造或改动过的二维码会被拒绝；同一科目再次核验会提示重复入场。
      </p>

      {camera ? (
        <Card size="small" style={{ marginBottom: 12 }}>
          {scanning ? (
            <Space direction="vertical" style={{ width: '100%' }}>
              <video ref={video} className="door-check__video" muted playsInline aria-label="摄像头画面" />
              <p className="console-hint door-check__aim">将准考证上的二维码对准画面中央</p>
              <Button block size="large" icon={<StopOutlined aria-hidden />} onClick={stop}>
                停止扫码
              </Button>
            </Space>
          ) : (
            <Button block size="large" type="primary" icon={<CameraOutlined aria-hidden />} onClick={() => void start()}>
              用摄像头扫码
            </Button>
          )}
          {cameraError && <p className="door-check__error">{cameraError}</p>}
        </Card>
      ) : (
        <p className="console-hint">此浏览器不能使用摄像头：请用扫码枪或其他扫码工具读取后粘贴到下方。</p>
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

      {t && (
        <Card
          className={`door-check__result ${t.repeat ? 'door-check__result--repeat' : 'door-check__result--ok'}`}
          size="small"
          role={t.repeat ? 'alert' : 'status'}
        >
          <div className="door-check__status">
            {t.repeat ? (
              <>
                <WarningFilled aria-hidden /> 重复入场：已于 {when(t.checkedInAt)} 签到
              </>
            ) : (
              <>
                <CheckCircleFilled aria-hidden /> 准考证有效
              </>
            )}
          </div>
          {t.repeat && <p className="door-check__reason">该准考证本科目已核验入场，请核对本人与证件，必要时报告考点主考。</p>}
          {!identityVerified(t.identity) && (
            <p className="door-check__unverified">身份未完成线上核验：请查验身份证原件并核对本人，必要时请考点主考复核。</p>
          )}
          <div className="door-check__body">
            {t.photo ? (
              <img className="door-check__photo" src={t.photo} alt={`${t.name}的照片`} />
            ) : (
              <div className="door-check__photo door-check__photo--none">无照片</div>
            )}
            <dl className="door-check__facts">
              <dt>姓名</dt>
              <dd className="door-check__name">{t.name}</dd>
              <dt>准考证号</dt>
              <dd>{t.ticketNo}</dd>
              <dt>考点</dt>
              <dd>{t.site}</dd>
              <dt>考场 / 座位</dt>
              <dd className="door-check__place">
                第 {t.room} 考场 · {String(t.seat).padStart(2, '0')} 号座位
              </dd>
              <CheckLine label="实名核验" status={t.identity.realName} />
              {t.identity.face !== null && <CheckLine label="人脸核验" status={t.identity.face} />}
              <dt>科目</dt>
              <PaperLine paper={t.paper} />
              {!t.repeat && (
                <>
                  <dt>签到</dt>
                  <dd>{when(t.checkedInAt)} 已签到</dd>
                </>
              )}
            </dl>
          </div>
        </Card>
      )}
      {outcome?.ok === false && (
        <Card className="door-check__result door-check__result--refused" size="small" role="alert">
          <div className="door-check__status">
            <CloseCircleFilled aria-hidden /> 未通过核验
          </div>
          <p className="door-check__reason">{outcome.msg}</p>
        </Card>
      )}
    </div>
  );
}
