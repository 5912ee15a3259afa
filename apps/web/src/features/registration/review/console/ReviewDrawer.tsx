import { EyeOutlined } from '@ant-design/icons';
import {
  APPLICATION_STATUS_LABEL,
  checkEligibility,
  DIALOG_WIDTH,
  FORM_FIELD_LABEL,
  historyWords,
  PHOTO_RULE_TEXT,
  type FormField,
  type Position,
  type ReviewDetail,
} from '@zhikaoyun/shared';
import { Alert, App, Button, Checkbox, Descriptions, Drawer, Image, Input, Modal, Result, Skeleton, Space, Tag, Timeline } from 'antd';
import { useRef, useState } from 'react';
import { formatDate, formatDateTime } from '../../../../components/format';
import { useStaffSession } from '../../../../lib/staff-session';
import { useDecision, useRejectionReasons, useReviewDetail, useRevealApplication } from './api';
import { IdentityTags } from './IdentityTags';
import { reviewActions, type ReviewAction } from './review-actions';

/**
 * The candidate against the position's conditions, by the very checkEligibility the site shows
 * candidates and the server applies at submit (on today's date: an age may have moved on).
 */
function EligibilityCheck({ detail: d, position }: { detail: ReviewDetail; position: Position | undefined }) {
  if (!position) return null;
  const workYears = Number(d.form.workYears ?? 0);
  const { eligible, reasons } = checkEligibility(
    position.requirements,
    {
      education: d.form.education,
      major: d.form.major,
      politicalStatus: d.form.politicalStatus,
      workYears: Number.isFinite(workYears) ? workYears : 0,
      birthday: d.birthday,
      sex: d.sex,
    },
    formatDate(new Date().toISOString()),
  );
  return eligible ? (
    <Alert
      className="review-eligibility"
      type="success"
      showIcon
      title="符合该岗位的报考条件（学历、专业、年龄、性别、政治面貌、工作年限）"
    />
  ) : (
    <Alert
      className="review-eligibility"
      type="warning"
      showIcon
      title="与该岗位的报考条件不符"
      description={
        <ul>
          {reasons.map((r) => (
            <li key={r}>{r}</li>
          ))}
        </ul>
      }
    />
  );
}

/**
 * The decision buttons, in the drawer's footer so they stay in view however long the record is;
 * 不通过 asks for the reason (a preset one to start from, editable) and whether the candidate may
 * resubmit (a final rejection: 不通过（不得再报）).
 */
function Decision({ detail: d }: { detail: ReviewDetail }) {
  const { message } = App.useApp();
  const decision = useDecision();
  // A double click is one decision: the second click comes before the button shows it is busy.
  const deciding = useRef(false);
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const [final, setFinal] = useState(false);
  const presets = useRejectionReasons();
  // The office's own reasons, then the photo rules' texts (the words the candidate's upload check uses).
  const offered = [...new Set([...(presets.data?.reasons ?? []), ...Object.values(PHOTO_RULE_TEXT)])];
  const role = useStaffSession((s) => s.staff?.role ?? 'reviewer');
  const actions = reviewActions(d.status, role);
  if (actions.length === 0) return null;

  const decide = (kind: ReviewAction) => {
    if (deciding.current) return;
    deciding.current = true;
    const isFinal = kind === 'reject' && final;
    decision.mutate(
      { applicationId: d.id, decision: kind, reason: kind === 'reject' ? reason : '', final: isFinal },
      {
        onSuccess: () => {
          void message.success(kind === 'approve' ? '已审核通过' : isFinal ? '已审核不通过（不得再报）' : '已审核不通过');
          setRejecting(false);
          setReason('');
          setFinal(false);
        },
        onSettled: () => {
          deciding.current = false;
        },
      },
    );
  };

  return (
    <>
      <Space className="review-actions">
        {actions.includes('approve') && (
          <Button type="primary" loading={decision.isPending} onClick={() => decide('approve')}>
            审核通过
          </Button>
        )}
        {actions.includes('reject') && (
          <Button danger onClick={() => setRejecting(true)}>
            审核不通过
          </Button>
        )}
      </Space>
      <Modal
        open={rejecting}
        title={`审核不通过：${d.name}`}
        width={DIALOG_WIDTH}
        okText={final ? '确认不通过（不得再报）' : '确认不通过'}
        cancelText="返回"
        okButtonProps={{ danger: true, disabled: reason.trim() === '', loading: decision.isPending }}
        onOk={() => decide('reject')}
        onCancel={() => setRejecting(false)}
      >
        {offered.length > 0 && (
          <div className="review-presets">
            <p>常用原因（点选后可修改）：</p>
            <Space size={[8, 8]} wrap>
              {offered.map((r) => (
                <Button key={r} size="small" type={reason === r ? 'primary' : 'default'} ghost={reason === r} onClick={() => setReason(r)}>
                  {r}
                </Button>
              ))}
            </Space>
          </div>
        )}
        <p>请写明原因，考生将看到这段文字{final ? '' : '并据此修改'}：</p>
        <Input.TextArea
          aria-label="审核意见"
          rows={4}
          maxLength={200}
          showCount
          value={reason}
          onChange={(e) => setReason(e.target.value)}
        />
        <Checkbox className="review-final" checked={final} onChange={(e) => setFinal(e.target.checked)}>
          不得再报（考生不能修改、撤回或重新提交本次报名）
        </Checkbox>
        {final && (
          <Alert
            type="warning"
            showIcon
            title="考生将看到「不通过（不得再报）」，本次考试不能再报名。仅在考生无法满足条件或提供虚假信息时选择。"
          />
        )}
      </Modal>
    </>
  );
}

function Detail({ detail: d, position }: { detail: ReviewDetail; position: Position | undefined }) {
  // The ID number and mobile stay masked until asked for; each reveal is audited.
  const reveal = useRevealApplication();
  const full = reveal.data;
  // Each step by what happened (a withdrawal reads 已撤回), as the candidate's own history says it.
  const words = historyWords(d.history);

  return (
    <>
      <div className="review-head">
        {d.photo ? <Image src={d.photo} alt="证件照" width={110} /> : <div className="review-head__nophoto">未上传照片</div>}
        <Descriptions column={1} size="small">
          <Descriptions.Item label="状态">
            <Tag>{APPLICATION_STATUS_LABEL[d.status]}</Tag>
          </Descriptions.Item>
          <Descriptions.Item label="身份证号">
            <span className="review-contact">{full?.idno ?? d.idnoMasked}</span>
            {!full && (
              <Button
                type="link"
                size="small"
                className="review-reveal"
                icon={<EyeOutlined aria-hidden />}
                loading={reveal.isPending}
                onClick={() => reveal.mutate(d.id)}
              >
                查看完整信息
              </Button>
            )}
          </Descriptions.Item>
          <Descriptions.Item label="身份核验">
            <IdentityTags identity={d.identity} />
          </Descriptions.Item>
          <Descriptions.Item label="手机 / 邮箱">
            <span className="review-contact">{full?.mobile ?? d.mobileMasked}</span>
            {d.email && ` / ${d.email}`}
          </Descriptions.Item>
          <Descriptions.Item label="性别 / 出生日期">
            {d.sex} / {d.birthday}
          </Descriptions.Item>
          <Descriptions.Item label="报考岗位">
            {d.positionCode} {d.positionName}（{d.unit}）
          </Descriptions.Item>
        </Descriptions>
      </div>
      <EligibilityCheck detail={d} position={position} />
      <Descriptions title="报考信息" column={1} size="small" bordered>
        {(Object.keys(FORM_FIELD_LABEL) as FormField[]).map((f) => (
          <Descriptions.Item key={f} label={FORM_FIELD_LABEL[f]}>
            {d.form[f] === undefined || d.form[f] === '' ? '—' : String(d.form[f])}
          </Descriptions.Item>
        ))}
      </Descriptions>
      <h3 className="review-history-title">办理记录</h3>
      <Timeline
        items={d.history.map((h, i) => ({
          content: `${formatDateTime(h.at)} ${h.actor === 'staff' ? '审核' : '考生'}：${words[i] ?? APPLICATION_STATUS_LABEL[h.status]}${h.reason ? `（${h.reason}）` : ''}`,
        }))}
      />
    </>
  );
}

/** One application in full, with the photo; approve, or reject with a written reason. */
export function ReviewDrawer({ id, onClose, positions = [] }: { id: number | null; onClose: () => void; positions?: readonly Position[] }) {
  const detail = useReviewDetail(id);
  const d = detail.data;
  return (
    <Drawer
      open={id !== null}
      onClose={onClose}
      size="large"
      // ✕ at the header's end: at the start it sits mid-screen (1440 − 736), right under the
      // 已审核通过 toast each decision shows, which took the clerk's click (and, hovered, stayed).
      closable={{ placement: 'end' }}
      title={d ? `${d.name} 的报名` : '报名详情'}
      destroyOnHidden
      footer={d && !detail.isError ? <Decision key={d.id} detail={d} /> : null}
    >
      {detail.isError ? (
        <Result status="warning" title="无法打开这份报名" subTitle={detail.error.message} />
      ) : !d ? (
        <Skeleton active paragraph={{ rows: 12 }} />
      ) : (
        // Keyed by the record: what one reveal showed never shows for the next record.
        <Detail key={d.id} detail={d} position={positions.find((p) => p.id === d.positionId)} />
      )}
    </Drawer>
  );
}
