import {
  formatFen,
  fromStatesOf,
  PAYMENT_PROVIDER_LABEL,
  transitionOf,
  WAIVER_CATEGORY_LABEL,
  WAIVER_PROOF_HINT,
  WAIVER_PROOF_MAX_BYTES,
  WAIVER_STATUS_LABEL,
  type ApplicationStatus,
  type Exam,
  type PaymentStatus,
  type WaiverCategory,
} from '@zhikaoyun/shared';
import { UploadOutlined } from '@ant-design/icons';
import { App, Button, QRCode, Select, Skeleton, Upload, type UploadFile } from 'antd';
import { useEffect, useState } from 'react';
import { DeadlineCountdown } from '../../../../components/DeadlineCountdown';
import { formatDateTime } from '../../../../components/format';
import {
  useApplyWaiver,
  useCheckPayment,
  useConfirmFree,
  useOptOut,
  usePay,
  usePaymentStatus,
  useSwitchPosition,
  useSwitchTargets,
} from '../api';

function Deadline({ deadline, label = '报名确认截止' }: { deadline: string; label?: string }) {
  return <DeadlineCountdown deadline={{ label, at: deadline }} />;
}

/**
 * 申请减免: the category, what proof it needs, and the proof itself (one file, as the server keeps
 * one), chosen with antd's upload in Chinese and sent with the request.
 */
function WaiverForm({ exam, onDone }: { exam: Exam; onDone: () => void }) {
  const { message } = App.useApp();
  const apply = useApplyWaiver(exam.id);
  const [category, setCategory] = useState<WaiverCategory | undefined>(exam.waiverCategories[0]);
  const [file, setFile] = useState<File | null>(null);
  const fileList: UploadFile[] = file ? [{ uid: 'proof', name: file.name, status: 'done', size: file.size }] : [];
  return (
    <div className="confirm-step__waiver">
      <label className="confirm-step__field">
        <span>减免类别</span>
        <Select
          value={category}
          onChange={setCategory}
          options={exam.waiverCategories.map((c) => ({ value: c, label: WAIVER_CATEGORY_LABEL[c] }))}
          aria-label="减免类别"
        />
      </label>
      {category && <p className="confirm-step__proof-hint">{WAIVER_PROOF_HINT[category]}。</p>}
      <div className="confirm-step__field">
        <span>证明材料</span>
        <span className="confirm-step__proof-rule">一个文件：JPG、PNG 照片或 PDF 扫描件，不超过 5 MB；多页材料请合并为一个 PDF。</span>
        <Upload
          accept="image/jpeg,image/png,application/pdf"
          maxCount={1}
          fileList={fileList}
          // Sent with the request, not uploaded on its own.
          beforeUpload={(f) => {
            if (f.size > WAIVER_PROOF_MAX_BYTES) {
              void message.error('证明材料不能超过 5 MB，请压缩或换一张后重新选择');
              return Upload.LIST_IGNORE;
            }
            setFile(f);
            return false;
          }}
          onRemove={() => setFile(null)}
        >
          <Button icon={<UploadOutlined aria-hidden />}>{file ? '重新选择' : '选择文件'}</Button>
        </Upload>
      </div>
      <Button
        type="primary"
        block
        disabled={!category || !file}
        loading={apply.isPending}
        onClick={() =>
          category &&
          file &&
          apply.mutate(
            { category, file },
            {
              onSuccess: () => {
                void message.success('减免申请已提交，请等待审核');
                onDone();
              },
            },
          )
        }
      >
        提交减免申请
      </Button>
    </div>
  );
}

/** The printable receipt of a confirmed application. */
function Receipt({ exam, pay, applicationNo }: { exam: Exam; pay: PaymentStatus; applicationNo: string | null }) {
  return (
    <section className="receipt" aria-label="报名确认回执">
      <h3 className="receipt__title">报名确认回执</h3>
      <dl className="receipt__rows">
        <dt>考试</dt>
        <dd>{exam.name}</dd>
        <dt>考生</dt>
        <dd>{pay.payer}</dd>
        {applicationNo && (
          <>
            <dt>报名号</dt>
            <dd>{applicationNo}</dd>
          </>
        )}
        {pay.status === 'paid' && (
          <>
            <dt>报名费</dt>
            <dd>{formatFen(pay.amount)}</dd>
            <dt>订单号</dt>
            <dd>{pay.orderNo}</dd>
            <dt>支付方式</dt>
            <dd>{pay.provider ? PAYMENT_PROVIDER_LABEL[pay.provider] : ''}</dd>
            <dt>支付时间</dt>
            <dd>{pay.paidAt ? formatDateTime(pay.paidAt) : ''}</dd>
          </>
        )}
        {pay.status === 'waived' && (
          <>
            <dt>报名费</dt>
            <dd>已减免（{pay.waiver ? WAIVER_CATEGORY_LABEL[pay.waiver.category] : ''}）</dd>
          </>
        )}
        {pay.status === 'none' && (
          <>
            <dt>报名费</dt>
            <dd>本考试免收报名费</dd>
          </>
        )}
      </dl>
      <Button className="receipt__print" onClick={() => window.print()}>
        打印回执
      </Button>
    </section>
  );
}

/**
 * 改报 or give up, for a confirmed candidate whose position close-out cancelled: the fee paid (or
 * the waiver) goes with a switch; giving up refunds what was paid. Either is final, so each asks
 * once more.
 */
function SwitchChoice({ exam, pay, currentPositionId }: { exam: Exam; pay: PaymentStatus; currentPositionId: number | null }) {
  const { modal, message } = App.useApp();
  const targets = useSwitchTargets(exam.id, true);
  const switchTo = useSwitchPosition(exam.id);
  const optOut = useOptOut(exam.id);
  const [target, setTarget] = useState<number | undefined>();
  const options = (targets.data?.list ?? []).filter((p) => p.id !== currentPositionId && !p.cancelled && p.eligible !== false);
  const chosen = options.find((p) => p.id === target);
  // Known to be none: said at once, and giving up is the way left.
  const none = targets.isSuccess && options.length === 0;
  const paid = pay.status === 'paid';
  const giveUp = paid ? '放弃并退费' : '放弃报考';
  return (
    <div className="confirm-step__switch">
      <h3 className="confirm-step__title">下一步：改报或{paid ? '退费' : '放弃'}</h3>
      <p className="status-card__words">
        您报考的岗位因未达到开考比例已取消。您可以改报本考试其他符合条件的岗位（
        {paid
          ? `已缴报名费 ${formatFen(pay.amount)} 随报名转移，无需重新缴费`
          : pay.status === 'waived'
            ? '减免资格随报名转移'
            : '无需重新确认'}
        ），或{paid ? '放弃报考并原路退还报名费' : '放弃报考'}。
        {paid ? '截止前未作选择的，报名取消并自动退费。' : '截止前未作选择的，报名自动取消。'}
      </p>
      {exam.switchEnd && <Deadline deadline={exam.switchEnd} label="改报截止" />}
      {none ? (
        <p className="confirm-step__switch-none" role="status">
          暂无您符合报考条件的其他岗位，可{paid ? '放弃报考并退费' : '放弃报考'}。
        </p>
      ) : (
        <Select
          className="confirm-step__select"
          placeholder="选择改报岗位"
          value={target}
          onChange={setTarget}
          loading={targets.isLoading}
          notFoundContent={targets.isLoading ? '正在读取岗位…' : '暂无您符合报考条件的其他岗位'}
          options={options.map((p) => ({ value: p.id, label: `${p.name}（${p.unit}）` }))}
          aria-label="改报岗位"
        />
      )}
      {!none && (
        <Button
          type="primary"
          block
          disabled={!chosen}
          loading={switchTo.isPending}
          onClick={() =>
            chosen &&
            modal.confirm({
              title: '确认改报',
              content: `改报为「${chosen.name}」（${chosen.code}，${chosen.unit}）。改报后不能再更改，确定吗？`,
              okText: '确认改报',
              cancelText: '取消',
              onOk: () =>
                switchTo
                  .mutateAsync(chosen.id)
                  .then(() => void message.success('改报成功'))
                  .catch(() => undefined),
            })
          }
        >
          确认改报
        </Button>
      )}
      <Button
        block
        type={none ? 'primary' : 'default'}
        danger
        loading={optOut.isPending}
        onClick={() =>
          modal.confirm({
            title: giveUp,
            content: paid
              ? `放弃后本次报名取消，报名费 ${formatFen(pay.amount)} 将原路退回。确定放弃吗？`
              : '放弃后本次报名取消，不能恢复。确定放弃吗？',
            okText: giveUp,
            okButtonProps: { danger: true },
            cancelText: '取消',
            onOk: () => optOut.mutateAsync().catch(() => undefined),
          })
        }
      >
        {giveUp}
      </Button>
    </div>
  );
}

// The step's states, read from the machine: paid (where a payment leads), past the deadline
// (where the expiry leads) and refunded (where a cancellation leads).
const PAID = transitionOf('pay').to;
const EXPIRED = transitionOf('expire').to;
const REFUNDED = transitionOf('cancel').to;
/** Before paying (a payment may still confirm it), paid, and refunded: the fee step is shown. */
const FEE_STEP_STATUSES: readonly ApplicationStatus[] = [...fromStatesOf('pay'), PAID, REFUNDED];

/**
 * 报名确认: the step after approval. The amount and the deadline with a countdown; pay (or
 * continue paying, or 我已支付), ask for a fee waiver, or confirm with one click when there is
 * no fee; once confirmed, the printable receipt and, if the position was cancelled, the switch.
 */
export function ConfirmationStep({
  exam,
  status,
  positionId,
  applicationNo,
}: {
  exam: Exam;
  status: ApplicationStatus;
  positionId: number | null;
  applicationNo: string | null;
}) {
  // Expired too: a waiver asked before the deadline may still be decided (and confirm) after it.
  const relevant = FEE_STEP_STATUSES.includes(status);
  const pay = usePaymentStatus(exam.id, relevant);
  // A code to scan (WeChat Native pay): shown until the page is left.
  const [payCode, setPayCode] = useState<string | null>(null);
  const startPay = usePay(exam.id, setPayCode);
  const check = useCheckPayment(exam.id);
  const { mutate: askProvider } = useCheckPayment(exam.id, { silent: true });
  const orderOpen = relevant && pay.data?.status === 'unpaid';
  // Back from the cashier, the provider's notify is asynchronous and may come late (or only at its
  // next try, minutes on): the page asks the provider once itself, as a merchant's return page does.
  useEffect(() => {
    if (orderOpen) askProvider();
  }, [orderOpen, askProvider]);
  const confirmFree = useConfirmFree(exam.id);
  const [waiverOpen, setWaiverOpen] = useState(false);
  if (!relevant) return null;
  if (pay.isLoading || !pay.data) return <Skeleton active paragraph={{ rows: 3 }} />;
  const p = pay.data;

  if (status === EXPIRED) {
    const w = p.waiver;
    if (!w || w.status === 'approved') return null;
    return (
      <div className="confirm-step">
        <p className={`confirm-step__waiver-state is-${w.status}`}>
          {w.status === 'pending'
            ? `您在截止前提交的减免申请（${WAIVER_CATEGORY_LABEL[w.category]}）正在审核，审核通过后报名即确认。`
            : `减免申请（${WAIVER_CATEGORY_LABEL[w.category]}）未通过${w.reason ? `，原因：${w.reason}` : ''}。`}
        </p>
      </div>
    );
  }

  if (status === REFUNDED) {
    return p.status === 'refunded' ? (
      <div className="confirm-step">
        <p className="status-card__words">
          报名费 {formatFen(p.amount)} {p.refundedAt ? `已于 ${formatDateTime(p.refundedAt)} 原路退回` : '正在原路退回'}
          {p.orderNo ? `（订单 ${p.orderNo}）` : ''}。
        </p>
      </div>
    ) : null;
  }

  if (status === PAID) {
    const switching =
      p.positionCancelled &&
      exam.switchStart !== null &&
      exam.switchEnd !== null &&
      new Date().toISOString() >= exam.switchStart &&
      new Date().toISOString() <= exam.switchEnd;
    return (
      <div className="confirm-step">
        {switching && <SwitchChoice exam={exam} pay={p} currentPositionId={positionId} />}
        <Receipt exam={exam} pay={p} applicationNo={applicationNo} />
      </div>
    );
  }

  // Approved: what to do before the deadline.
  if (exam.phase === 'reviewing' || exam.phase === 'registering' || exam.phase === 'upcoming') {
    return (
      <div className="confirm-step">
        <p className="status-card__words">
          报名确认将于 {formatDateTime(exam.confirmationStart)} 开始，请届时登录完成
          {exam.fee > 0 ? `缴费（${formatFen(exam.fee)}）` : '确认'}。
        </p>
      </div>
    );
  }
  const waiver = p.waiver;
  const canWaive = exam.waiverCategories.length > 0 && exam.fee > 0 && (!waiver || waiver.status === 'rejected');
  return (
    <div className="confirm-step">
      <h3 className="confirm-step__title">下一步：报名确认</h3>
      {exam.fee > 0 ? (
        <p className="confirm-step__amount">
          报名费 <strong>{formatFen(p.amount)}</strong>
        </p>
      ) : (
        <p className="confirm-step__amount">本考试免收报名费，请点击确认报名。</p>
      )}
      <Deadline deadline={p.deadline} />
      {waiver && (
        <p className={`confirm-step__waiver-state is-${waiver.status}`}>
          减免申请（{WAIVER_CATEGORY_LABEL[waiver.category]}）：{WAIVER_STATUS_LABEL[waiver.status]}
          {waiver.status === 'rejected' && waiver.reason ? `，原因：${waiver.reason}。您仍可在截止前缴费。` : ''}
        </p>
      )}
      <div className="status-actions">
        {exam.fee === 0 && (
          <Button type="primary" size="large" block loading={confirmFree.isPending} onClick={() => confirmFree.mutate()}>
            确认报名
          </Button>
        )}
        {exam.fee > 0 && waiver?.status !== 'pending' && (
          <>
            <Button type="primary" size="large" block loading={startPay.isPending} onClick={() => startPay.mutate()}>
              {p.status === 'unpaid' ? '继续支付' : `立即缴费 ${formatFen(p.amount)}`}
            </Button>
            {p.status === 'unpaid' && (
              <Button size="large" block loading={check.isPending} onClick={() => check.mutate()}>
                我已支付
              </Button>
            )}
          </>
        )}
        {canWaive && !waiverOpen && (
          <Button size="large" block onClick={() => setWaiverOpen(true)}>
            申请减免报名费
          </Button>
        )}
      </div>
      {payCode && p.status !== 'paid' && (
        <figure className="confirm-step__code">
          <QRCode type="svg" value={payCode} size={184} bordered={false} />
          <figcaption>请使用微信“扫一扫”扫描二维码支付，支付完成后点击“我已支付”。</figcaption>
        </figure>
      )}
      {canWaive && waiverOpen && <WaiverForm exam={exam} onDone={() => setWaiverOpen(false)} />}
      {p.orderNo && p.status === 'unpaid' && <p className="confirm-step__order">待支付订单：{p.orderNo}</p>}
    </div>
  );
}
