import { PaperClipOutlined, UploadOutlined } from '@ant-design/icons';
import { ATTACHMENT_EXTENSIONS, ATTACHMENT_MAX_BYTES, noticeInputSchema, type AdminNotice } from '@zhikaoyun/shared';
import { App, Button, Form, Input, List, Select, Space, Switch, Upload } from 'antd';
import { useAdminExams } from '../../../../lib/api/console-exams';
import { EditorDrawer } from '../../../../components/console/EditorDrawer';
import { useEffect, useState } from 'react';
import { RichTextEditor } from '../../../../components/console/RichTextEditor';
import { zodRule } from '../../../../lib/form-rules';
import { useSaveNotice, useUploadAttachment } from './api';

interface Values {
  title: string;
  summary: string;
  content: string;
  pinned: boolean;
  published: boolean;
  /** 所属考试; null: a general notice. */
  examId: number | null;
}
type Attachment = { name: string; url: string };

const shape = noticeInputSchema.shape;

/** Writes a notice: title, summary, rich text, attachments; saved as a draft or published. */
export function NoticeEditorDrawer({ notice, open, onClose }: { notice: AdminNotice | null; open: boolean; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  const save = useSaveNotice();
  const { message } = App.useApp();
  const [attachments, setAttachments] = useState<Attachment[]>([]);
  const upload = useUploadAttachment();
  const exams = useAdminExams();

  useEffect(() => {
    if (!open) return;
    form.setFieldsValue({
      title: notice?.title ?? '',
      summary: notice?.summary ?? '',
      content: notice?.content ?? '',
      pinned: notice?.pinned ?? false,
      published: notice?.published ?? false,
      examId: notice?.examId ?? null,
    });
    setAttachments(notice?.attachments ?? []);
  }, [open, notice, form]);

  const attach = (file: File) => {
    if (file.size > ATTACHMENT_MAX_BYTES) {
      void message.error(`附件不能超过 ${ATTACHMENT_MAX_BYTES / 1024 / 1024} MB`);
      return;
    }
    // mutateAsync: each of several files picked at once adds its own attachment.
    void upload
      .mutateAsync(file)
      .then((a) => setAttachments((list) => [...list, a]))
      .catch(() => undefined);
  };

  const submit = (v: Values) =>
    void save
      .mutateAsync({ ...(notice ? { id: notice.id } : {}), ...v, examId: v.examId ?? null, attachments })
      .then(() => {
        void message.success(v.published ? '公告已发布' : '公告已保存为草稿');
        onClose();
      })
      .catch(() => undefined);

  return (
    <EditorDrawer
      title={notice ? '编辑公告' : '新建公告'}
      open={open}
      onClose={onClose}
      saving={save.isPending}
      onSave={() => form.submit()}
    >
      <Form form={form} name="notice-form" layout="vertical" onFinish={submit}>
        <Form.Item name="title" label="标题" rules={[zodRule(shape.title)]}>
          <Input maxLength={80} showCount />
        </Form.Item>
        <Form.Item name="examId" label="所属考试" help="选择后，考生在该考试的「本次考试公告」中与招考公告一起看到这条公告；留空为通用公告">
          <Select
            allowClear
            placeholder="不属于某场考试（通用公告）"
            loading={exams.isLoading}
            options={(exams.data ?? []).map((e) => ({ value: e.id, label: e.published ? e.name : `${e.name}（未发布）` }))}
            // Cleared: null, as the server keeps a general notice.
            onClear={() => form.setFieldValue('examId', null)}
          />
        </Form.Item>
        <Form.Item name="summary" label="摘要" help="留空时取正文开头">
          <Input.TextArea maxLength={200} rows={2} />
        </Form.Item>
        <Form.Item name="content" label="正文" rules={[zodRule(shape.content)]}>
          <RichTextEditor label="公告正文" />
        </Form.Item>
        <Form.Item label={`附件（${ATTACHMENT_EXTENSIONS.join('、')}，每个不超过 ${ATTACHMENT_MAX_BYTES / 1024 / 1024} MB，最多 10 个）`}>
          <List
            size="small"
            dataSource={attachments}
            locale={{ emptyText: '暂无附件' }}
            renderItem={(a) => (
              <List.Item
                actions={[
                  <Button key="remove" type="link" danger onClick={() => setAttachments((list) => list.filter((x) => x !== a))}>
                    移除
                  </Button>,
                ]}
              >
                <PaperClipOutlined aria-hidden /> {a.name}
              </List.Item>
            )}
          />
          <Upload
            accept={ATTACHMENT_EXTENSIONS.map((e) => `.${e}`).join(',')}
            showUploadList={false}
            disabled={attachments.length >= 10}
            beforeUpload={(file) => {
              attach(file);
              return false;
            }}
          >
            <Button icon={<UploadOutlined aria-hidden />} loading={upload.isPending} disabled={attachments.length >= 10}>
              上传附件
            </Button>
          </Upload>
        </Form.Item>
        <Space size="large">
          <Form.Item name="pinned" label="置顶" valuePropName="checked">
            <Switch />
          </Form.Item>
          <Form.Item name="published" label="发布到考生网站" valuePropName="checked">
            <Switch checkedChildren="发布" unCheckedChildren="草稿" />
          </Form.Item>
        </Space>
      </Form>
    </EditorDrawer>
  );
}
