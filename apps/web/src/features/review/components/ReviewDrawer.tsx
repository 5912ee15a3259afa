import { APPLICATION_STATUS_LABEL, DIALOG_WIDTH, FORM_FIELD_LABEL, type FormField } from '@zhikaoyun/shared';
import { App, Button, Descriptions, Drawer, Image, Input, Modal, Skeleton, Space, Tag, Timeline } from 'antd';
import { useState } from 'react';
import { formatDateTime } from '../../../components/format';
import { useDecision, useReviewDetail } from '../api';

/** One application in full, with the photo; approve, or reject with a written reason. */
export function ReviewDrawer({ id, onClose }: { id: number | null; onClose: () => void }) {
  const { message } = App.useApp();
  const detail = useReviewDetail(id);
  const decision = useDecision();
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const d = detail.data;

  const decide = (kind: 'approve' | 'reject') =>
    decision.mutate(
      { applicationId: id!, decision: kind, reason: kind === 'reject' ? reason : '' },
      {
        onSuccess: () => {
          void message.success(kind === 'approve' ? '已审核通过' : '已审核不通过');
          setRejecting(false);
          setReason('');
        },
      },
    );

  return (
    <Drawer open={id !== null} onClose={onClose} size="large" title={d ? `${d.name} 的报名` : '报名详情'} destroyOnHidden>
      {!d ? (
        <Skeleton active paragraph={{ rows: 12 }} />
      ) : (
        <>
          <div className="review-head">
            {d.photo ? <Image src={d.photo} alt="证件照" width={110} /> : <div className="review-head__nophoto">未上传照片</div>}
            <Descriptions column={1} size="small">
              <Descriptions.Item label="状态">
                <Tag>{APPLICATION_STATUS_LABEL[d.status]}</Tag>
              </Descriptions.Item>
              <Descriptions.Item label="身份证号">{d.idno}</Descriptions.Item>
              <Descriptions.Item label="性别 / 出生日期">
                {d.sex} / {d.birthday}
              </Descriptions.Item>
              <Descriptions.Item label="手机 / 邮箱">
                {d.mobile} {d.email && `/ ${d.email}`}
              </Descriptions.Item>
              <Descriptions.Item label="报考岗位">
                {d.positionCode} {d.positionName}（{d.unit}）
              </Descriptions.Item>
            </Descriptions>
          </div>
          <Descriptions title="报考信息" column={1} size="small" bordered>
            {(Object.keys(FORM_FIELD_LABEL) as FormField[]).map((f) => (
              <Descriptions.Item key={f} label={FORM_FIELD_LABEL[f]}>
                {d.form[f] === undefined || d.form[f] === '' ? '—' : String(d.form[f])}
              </Descriptions.Item>
            ))}
          </Descriptions>
          <h3 className="review-history-title">办理记录</h3>
          <Timeline
            items={d.history.map((h) => ({
              content: `${formatDateTime(h.at)} ${h.actor === 'staff' ? '审核' : '考生'}：${APPLICATION_STATUS_LABEL[h.status]}${h.reason ? `（${h.reason}）` : ''}`,
            }))}
          />
          {d.status === 'submitted' && (
            <Space className="review-actions">
              <Button type="primary" loading={decision.isPending} onClick={() => decide('approve')}>
                审核通过
              </Button>
              <Button danger onClick={() => setRejecting(true)}>
                审核不通过
              </Button>
            </Space>
          )}
          <Modal
            open={rejecting}
            title="审核不通过"
            width={DIALOG_WIDTH}
            okText="确认不通过"
            cancelText="取消"
            okButtonProps={{ danger: true, disabled: reason.trim() === '', loading: decision.isPending }}
            onOk={() => decide('reject')}
            onCancel={() => setRejecting(false)}
          >
            <p>请写明原因，考生将看到这段文字并据此修改：</p>
            <Input.TextArea
              aria-label="审核意见"
              rows={4}
              maxLength={200}
              showCount
              value={reason}
              onChange={(e) => setReason(e.target.value)}
            />
          </Modal>
        </>
      )}
    </Drawer>
  );
}
