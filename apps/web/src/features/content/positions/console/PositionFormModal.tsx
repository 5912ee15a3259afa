import {
  EDUCATION_LEVELS,
  educationText,
  politicalRequirementText,
  positionInputSchema,
  type Position,
  type PositionInput,
} from '@zhikaoyun/shared';
import { App, Col, Form, Input, InputNumber, Row, Select } from 'antd';
import { useEffect } from 'react';
import { zodRule } from '../../../../lib/form-rules';
import { useExamSubjects } from '../../../../lib/api/console-exams';
import { useSavePosition } from './api';
import { FormModal } from '../../../../components/console/FormModal';

interface Values {
  code: string;
  name: string;
  unit: string;
  headcount: number;
  description: string;
  minEducation: string;
  majors: string[];
  maxAge: number | null;
  sex: '不限' | '男' | '女';
  politicalStatus: '不限' | '中共党员';
  workYears: number;
  note: string;
  subjectIds: number[];
}

const ANY = '不限';
const shape = positionInputSchema.shape;

function initial(p: Position | null): Values {
  const r = p?.requirements;
  return {
    code: p?.code ?? '',
    name: p?.name ?? '',
    unit: p?.unit ?? '',
    headcount: p?.headcount ?? 1,
    description: p?.description ?? '',
    minEducation: r?.minEducation ?? ANY,
    majors: r?.majors ?? [],
    maxAge: r?.maxAge ?? null,
    sex: r?.sex ?? '不限',
    politicalStatus: r?.politicalStatus ?? '不限',
    workYears: r?.workYears ?? 0,
    note: r?.note ?? '',
    subjectIds: p?.subjectIds ?? [],
  };
}

/** Creates or edits one position with its structured requirements. */
export function PositionFormModal({
  examId,
  position,
  open,
  onClose,
}: {
  examId: number;
  position: Position | null;
  open: boolean;
  onClose: () => void;
}) {
  const [form] = Form.useForm<Values>();
  const save = useSavePosition();
  const { message } = App.useApp();
  const subjects = useExamSubjects(examId, open);

  useEffect(() => {
    if (open) form.setFieldsValue(initial(position));
  }, [open, position, form]);

  const submit = (v: Values) => {
    const input: PositionInput = {
      ...(position ? { id: position.id } : {}),
      examId,
      code: v.code,
      name: v.name,
      unit: v.unit,
      headcount: v.headcount,
      description: v.description ?? '',
      requirements: {
        minEducation: v.minEducation === ANY ? null : (v.minEducation as (typeof EDUCATION_LEVELS)[number]),
        majors: v.majors ?? [],
        maxAge: v.maxAge ?? null,
        sex: v.sex,
        politicalStatus: v.politicalStatus,
        workYears: v.workYears ?? 0,
        note: v.note ?? '',
      },
      subjectIds: v.subjectIds ?? [],
    };
    void save
      .mutateAsync(input)
      .then(() => {
        void message.success(position ? '岗位已保存' : '岗位已添加');
        onClose();
      })
      .catch(() => undefined);
  };

  return (
    <FormModal
      title={position ? `编辑岗位 ${position.code}` : '新增岗位'}
      open={open}
      onClose={onClose}
      form={form}
      saving={save.isPending}
      width={720}
    >
      <Form form={form} name="position-form" layout="vertical" onFinish={submit}>
        <Row gutter={12}>
          <Col span={8}>
            <Form.Item name="code" label="岗位代码" rules={[zodRule(shape.code)]}>
              <Input maxLength={20} />
            </Form.Item>
          </Col>
          <Col span={16}>
            <Form.Item name="name" label="岗位名称" rules={[zodRule(shape.name)]}>
              <Input maxLength={60} />
            </Form.Item>
          </Col>
          <Col span={16}>
            <Form.Item name="unit" label="招聘单位" rules={[zodRule(shape.unit)]}>
              <Input maxLength={60} />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="headcount" label="招聘人数" rules={[zodRule(shape.headcount)]}>
              <InputNumber min={1} max={9999} precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item name="description" label="岗位描述">
              <Input.TextArea maxLength={500} rows={2} showCount />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="minEducation" label="最低学历">
              <Select
                options={[
                  { value: ANY, label: educationText(null) },
                  ...EDUCATION_LEVELS.map((v) => ({ value: v, label: educationText(v) })),
                ]}
              />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="maxAge" label="最高年龄（周岁）" help="含所填年龄；留空为不限">
              <InputNumber min={18} max={65} precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="workYears" label="工作年限（年）">
              <InputNumber min={0} max={40} precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="sex" label="性别要求">
              <Select options={['不限', '男', '女'].map((v) => ({ value: v, label: v }))} />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="politicalStatus" label="政治面貌要求">
              <Select
                options={[
                  { value: '不限', label: '不限' },
                  { value: '中共党员', label: politicalRequirementText('中共党员') },
                ]}
              />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item name="majors" label="专业要求" help="输入专业名称后回车，可添加多个；不填为专业不限">
              <Select mode="tags" tokenSeparators={['、', ',', '，']} open={false} suffixIcon={null} aria-label="专业要求" />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item
              name="subjectIds"
              label="考试科目"
              help={
                subjects.data && subjects.data.length === 0
                  ? '本考试还没有科目，请先在考场编排中添加；未选择时考全部科目'
                  : '不选为考全部科目'
              }
            >
              <Select
                mode="multiple"
                aria-label="考试科目"
                placeholder="全部科目"
                allowClear
                loading={subjects.isLoading}
                options={(subjects.data ?? []).map((s) => ({ value: s.id, label: s.name }))}
              />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item name="note" label="其他条件">
              <Input.TextArea maxLength={300} rows={2} showCount />
            </Form.Item>
          </Col>
        </Row>
      </Form>
    </FormModal>
  );
}
