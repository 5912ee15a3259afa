import { ARCHIVE_STATUS_LABEL, type AdminExam, type ExamArchiveStatus } from '@zhikaoyun/shared';
import { App, Button, Descriptions, Modal, Progress, Space, Tag, Typography } from 'antd';
import { formatDate, formatDateTime } from '../../../../components/format';
import { downloadArchive, useArchiveStatus, useStartArchive } from './api';

const TAG_COLOR: Readonly<Record<ExamArchiveStatus['status'], string | undefined>> = {
  none: undefined,
  running: 'processing',
  ready: 'success',
  failed: 'error',
};

const megabytes = (bytes: number) =>
  bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/**
 * 考试归档 (issue 36): the exam's sealed archive, made in the background once the exam is over,
 * its progress while it runs, then its download; and the date retention anonymises the exam's
 * candidates who were not hired.
 */
export function ExamArchiveModal({ exam, onClose }: { exam: AdminExam | null; onClose: () => void }) {
  const examId = exam?.id;
  const { message } = App.useApp();
  const status = useArchiveStatus(examId);
  const start = useStartArchive(examId);
  const s = status.data;
  const download = () => {
    if (exam) void downloadArchive(exam.id, exam.name).catch(() => undefined);
  };

  return (
    <Modal
      title={exam ? `考试归档：${exam.name}` : '考试归档'}
      open={exam !== null}
      onCancel={onClose}
      footer={null}
      width={640}
      destroyOnHidden
    >
      {s && (
        <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
          <Descriptions column={1} size="small" bordered>
            <Descriptions.Item label="归档状态">
              <Tag color={TAG_COLOR[s.status]}>{ARCHIVE_STATUS_LABEL[s.status]}</Tag>
              {s.status === 'ready' && s.finishedAt && <span>生成于 {formatDateTime(s.finishedAt)}</span>}
            </Descriptions.Item>
            {s.status === 'running' && (
              <Descriptions.Item label="进度">
                <Progress percent={s.progress} size="small" />
              </Descriptions.Item>
            )}
            {s.status === 'failed' && s.error && <Descriptions.Item label="原因">{s.error}</Descriptions.Item>}
            {s.status === 'ready' && s.size !== null && <Descriptions.Item label="文件大小">{megabytes(s.size)}</Descriptions.Item>}
            {s.status === 'ready' && s.sha256 && (
              <Descriptions.Item label="SHA-256">
                <Typography.Text code copyable style={{ wordBreak: 'break-all' }}>
                  {s.sha256}
                </Typography.Text>
              </Descriptions.Item>
            )}
            <Descriptions.Item label="考试结束">{s.endedAt ? formatDateTime(s.endedAt) : '尚未结束'}</Descriptions.Item>
            <Descriptions.Item label="个人信息匿名化">
              {s.anonymisedAt
                ? `已于 ${formatDate(s.anonymisedAt)} 匿名化（未录用考生）`
                : s.anonymiseAt
                  ? `${formatDate(s.anonymiseAt)} 起匿名化未录用考生的个人信息（拟录用人员保留）`
                  : '考试结束后按保存期限计算'}
            </Descriptions.Item>
          </Descriptions>
          {!s.archivable && <Typography.Text type="secondary">考试结束（最后一个环节公布或考试日程结束）后才能生成归档。</Typography.Text>}
          <Space>
            <Button
              type="primary"
              disabled={!s.archivable || s.status === 'running'}
              loading={start.isPending}
              onClick={() =>
                void start.mutateAsync().then(
                  () => message.info('归档已开始生成，完成后可下载'),
                  () => undefined,
                )
              }
            >
              {s.status === 'ready' || s.status === 'failed' ? '重新生成归档' : '生成归档'}
            </Button>
            {s.status === 'ready' && <Button onClick={download}>下载归档</Button>}
          </Space>
          <Typography.Text type="secondary">
            归档为 zip 文件：各类记录表格、公示 PDF 与签名清单（manifest.json），可用 npm run verify-archive 离线校验。
          </Typography.Text>
        </Space>
      )}
    </Modal>
  );
}
