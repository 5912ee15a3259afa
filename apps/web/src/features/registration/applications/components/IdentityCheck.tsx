import { Alert, Button, Input, Modal, Space } from 'antd';
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import {
  DIALOG_WIDTH,
  FACE_PENDING_TEXT,
  FACE_REQUIRED_TEXT,
  REAL_NAME_FAILED_TEXT,
  type Exam,
  type IdentityStatus,
} from '@zhikaoyun/shared';
import { accountKeys } from '../../../../lib/api/keys';
import { correctIdentityName, startFaceVerify, useUserInfo } from '../../../../lib/api/accounts';
import { formatDateTime } from '../../../../components/format';
import { AppealDrawer } from '../../../../components/AppealDrawer';

const APPEAL_LEAD =
  '姓名与身份证一致仍未通过实名核验，或身份证号码被他人冒用注册：提交申诉后，工作人员将在工作日内致电您填写的手机号码，核对身份证件后为您处理。';

/** Whether identity stops a submit of this exam now (the server checks the same again). */
export function identityBlocks(exam: Exam, s: IdentityStatus | undefined): boolean {
  if (!s) return false;
  return s.realName === 'failed' || (exam.config.faceVerify === true && s.face !== 'passed');
}

/**
 * What the confirm page says about identity (issue 33): a failed real-name check with its two
 * ways out, and the face check an exam asks for, with the button that opens it.
 */
export function IdentityCheck({ exam, status }: { exam: Exam; status: IdentityStatus | undefined }) {
  const client = useQueryClient();
  const [starting, setStarting] = useState(false);
  const [correcting, setCorrecting] = useState(false);
  const [name, setName] = useState('');
  const [saving, setSaving] = useState(false);
  const [appealing, setAppealing] = useState(false);
  const user = useUserInfo().data;
  if (!status) return null;

  const face = () => {
    setStarting(true);
    startFaceVerify(exam.id).then(
      ({ url }) => window.location.assign(url),
      () => setStarting(false),
    );
  };
  const correct = () => {
    setSaving(true);
    correctIdentityName(name.trim()).then(
      (s) => {
        client.setQueryData([...accountKeys.userInfo(), 'identity'], s);
        void client.invalidateQueries({ queryKey: accountKeys.userInfo() });
        setCorrecting(false);
        setSaving(false);
      },
      () => setSaving(false),
    );
  };

  return (
    <>
      {status.realName === 'failed' && (
        <Alert
          className="review-opinion"
          type="error"
          showIcon
          title="实名核验未通过"
          description={REAL_NAME_FAILED_TEXT}
          action={
            <Space orientation="vertical" size={8}>
              <Button size="small" type="primary" onClick={() => setCorrecting(true)}>
                更正姓名
              </Button>
              <Button size="small" onClick={() => setAppealing(true)}>
                身份申诉
              </Button>
            </Space>
          }
        />
      )}
      {status.realName === 'failed' && (
        <AppealDrawer
          open={appealing}
          onClose={() => setAppealing(false)}
          title="身份申诉"
          lead={APPEAL_LEAD}
          // The name is left to write as on the ID card: the account's is the one the check refused.
          initial={{ idno: user?.idno, mobile: user?.mobile, description: '实名核验未通过，我的姓名与身份证一致，请核实' }}
        />
      )}
      {exam.config.faceVerify &&
        (status.face === 'passed' ? (
          <Alert
            className="review-opinion"
            type="success"
            showIcon
            title={`人脸核验已通过${status.faceAt ? `（${formatDateTime(status.faceAt)}）` : ''}`}
          />
        ) : (
          <Alert
            className="review-opinion"
            type="warning"
            showIcon
            title={
              status.face === 'failed' ? '人脸核验未通过，请重新核验' : status.face === 'pending' ? '人脸核验结果确认中' : '需要人脸核验'
            }
            description={status.face === 'pending' ? FACE_PENDING_TEXT : FACE_REQUIRED_TEXT}
            action={
              <Button type="primary" size="small" loading={starting} onClick={face}>
                {status.face === 'none' ? '去人脸核验' : '重新核验'}
              </Button>
            }
          />
        ))}
      <Modal
        open={correcting}
        title="更正姓名"
        width={DIALOG_WIDTH}
        okText="更正并重新核验"
        cancelText="取消"
        okButtonProps={{ disabled: name.trim().length < 2, loading: saving }}
        onOk={correct}
        onCancel={() => setCorrecting(false)}
      >
        <p>请填写与身份证完全一致的姓名，提交后将立即重新核验。</p>
        <Input aria-label="与身份证一致的姓名" maxLength={30} value={name} onChange={(e) => setName(e.target.value)} />
      </Modal>
    </>
  );
}
