import { DOCUMENT_TYPE_LABEL, documentInputSchema, EDITABLE_DOCUMENT_TYPES, type AdminExam } from '@zhikaoyun/shared';
import { App, Button, Drawer, Form, Input, Tabs } from 'antd';
import { formatDateTime } from '../../../../components/format';
import { useEffect } from 'react';
import { RichTextEditor } from '../../../../components/console/RichTextEditor';
import { enumParam, useUrlParams } from '../../../../components/console/url-state';
import { zodRule } from '../../../../lib/form-rules';
import { useExamDocuments, useSaveExamDocument } from './api';

type DocType = (typeof EDITABLE_DOCUMENT_TYPES)[number];

const DEFAULT_TITLE: Readonly<Record<DocType, string>> = { notice: '招考公告', guide: '报考指南', pledge: '诚信承诺书' };

function DocumentForm({ exam, type, canEdit }: { exam: AdminExam; type: DocType; canEdit: boolean }) {
  const docs = useExamDocuments(exam.id);
  const save = useSaveExamDocument();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ title: string; content: string }>();
  const doc = docs.data?.find((d) => d.type === type);

  useEffect(() => {
    form.setFieldsValue({ title: doc?.title ?? DEFAULT_TITLE[type], content: doc?.content ?? '' });
  }, [doc, type, form]);

  return (
    <Form
      form={form}
      name={`exam-doc-${type}`}
      layout="vertical"
      disabled={!canEdit}
      onFinish={(v) =>
        void save
          .mutateAsync({ examId: exam.id, type, ...v })
          .then(() => message.success(`${DOCUMENT_TYPE_LABEL[type]}已保存`))
          .catch(() => undefined)
      }
    >
      <Form.Item name="title" label="标题" rules={[zodRule(documentInputSchema.shape.title)]}>
        <Input maxLength={80} />
      </Form.Item>
      <Form.Item name="content" label="正文" rules={[zodRule(documentInputSchema.shape.content)]}>
        <RichTextEditor label={`${DOCUMENT_TYPE_LABEL[type]}正文`} />
      </Form.Item>
      {doc && <p className="console-hint">上次保存：{formatDateTime(doc.updatedAt)}</p>}
      {canEdit && (
        <Button type="primary" htmlType="submit" loading={save.isPending}>
          保存{DOCUMENT_TYPE_LABEL[type]}
        </Button>
      )}
    </Form>
  );
}

/**
 * An exam's texts that candidates read before applying: notice, guide and the pledge they sign.
 * The tab is `?doc=`; switching tabs replaces the entry, so Back closes the drawer.
 */
export function ExamDocumentsDrawer({
  exam,
  open,
  onClose,
  canEdit,
}: {
  exam: AdminExam | null;
  open: boolean;
  onClose: () => void;
  canEdit: boolean;
}) {
  const [params, update] = useUrlParams();
  const tab = enumParam<DocType>(params, 'doc', EDITABLE_DOCUMENT_TYPES, 'notice');
  return (
    <Drawer title={exam ? `考试文件：${exam.name}` : '考试文件'} open={open} onClose={onClose} size="large" destroyOnHidden>
      {exam && (
        <Tabs
          activeKey={tab}
          onChange={(k) => update({ doc: k === 'notice' ? null : k }, { replace: true })}
          items={EDITABLE_DOCUMENT_TYPES.map((type) => ({
            key: type,
            label: DOCUMENT_TYPE_LABEL[type],
            children: <DocumentForm exam={exam} type={type} canEdit={canEdit} />,
          }))}
        />
      )}
    </Drawer>
  );
}
