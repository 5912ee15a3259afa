import {
  DRAFT_CONFLICT_TEXT,
  formAsShown,
  formLock,
  photoLockedText,
  PROFILE_FIELDS,
  showsReviewOpinion,
  type Application,
  type ApplicationDraft,
  type Exam,
} from '@zhikaoyun/shared';
import { Alert, App, Button, Form, Skeleton, type FormInstance } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { ExamTitle } from '../../../../components/ExamTitle';
import { GroupTitle } from '../../../../components/GroupTitle';
import { IdPhotoField } from '../../../../components/IdPhotoField';
import { JourneySteps } from '../../../../components/JourneySteps';
import { MobileBaseInfoCard } from '../../../../components/MobileBaseInfoCard';
import { MobileContainerCard } from '../../../../components/MobileContainerCard';
import { useUserInfo } from '../../../../lib/api/accounts';
import { useApplication, useLastProfile } from '../api';
import { applicationKeys } from '../../../../lib/api/keys';
import { replacedFields, takeKeptDraft, useAutosave } from '../autosave';
import { ExamGate } from '../../../../components/ExamGate';
import { ApplicationFormFields } from '../components/ApplicationFormFields';
import { FormSummary } from '../components/FormSummary';
import { ReviewOpinion } from '../components/ReviewOpinion';
import { SaveIndicator } from '../components/SaveIndicator';

const isEmpty = (v: unknown) => v === undefined || v === null || v === '';

/** What a save sends: the saved form with every field as the page shows it now. */
function wholeForm(app: Application | null | undefined, form: FormInstance<ApplicationDraft>): ApplicationDraft {
  return { ...app?.form, ...(form.getFieldsValue(true) as ApplicationDraft) };
}

function FillForm({ exam }: { exam: Exam }) {
  const navigate = useNavigate();
  const { message } = App.useApp();
  // Read fresh: the photo may have been uploaded in another tab or in the personal center.
  const userInfo = useUserInfo().data ?? null;
  const application = useApplication(exam.id);
  const [form] = Form.useForm<ApplicationDraft>();
  const client = useQueryClient();
  const [conflict, setConflict] = useState(false);
  const [photoMissing, setPhotoMissing] = useState(false);
  const [prefilledFrom, setPrefilledFrom] = useState<string | null>(null);
  /** What this tab left unsaved when it was last unloaded is back in the fields: no prefill over it. */
  const [restored, setRestored] = useState(false);
  const photoRef = useRef<HTMLDivElement>(null);
  /** The version of the form the fields show: this tab's own saves move it without reloading the fields. */
  const shown = useRef<number | null>(null);
  const conflicted = useRef(false);
  const overwritten = useRef<{ typed: ApplicationDraft; base: ApplicationDraft } | null>(null);
  /** The fields this tab had typed that the newer form from elsewhere replaced, with what was typed. */
  const [replaced, setReplaced] = useState<{ label: string; value: string }[]>([]);
  const autosave = useAutosave(exam.id, {
    onSaved: (saved) => {
      shown.current = saved.version;
      // A read still under way left before this save: it must not put the older form back in
      // the cache (the confirm page submits the cached version). Cancelled first, then set.
      void client
        .cancelQueries({ queryKey: applicationKeys.detail(exam.id) })
        .then(() => client.setQueryData(applicationKeys.detail(exam.id), saved));
    },
    onConflict: () => {
      conflicted.current = true;
      // What this tab typed on top of the form it had: what it changed is named once the newer
      // form (saved elsewhere) replaces it, with the values typed, so they can be entered again.
      overwritten.current = { typed: form.getFieldsValue(true) as ApplicationDraft, base: formAsShown(app?.form ?? {}, userInfo) };
      setConflict(true);
      setReplaced([]);
      void application.refetch();
    },
  });
  const { rebase, restore, schedule } = autosave;
  const app = application.data;
  const locked = formLock(app?.status);
  const editable = locked === null && exam.phase === 'registering';
  // A form that holds nothing about the person yet starts from their last application elsewhere.
  const profileEmpty = application.isSuccess && PROFILE_FIELDS.every((f) => isEmpty(app?.form[f]));
  const last = useLastProfile(exam.id, editable && profileEmpty && prefilledFrom === null && !restored);

  // The fields show the server's form: when first read, and when a newer one saved elsewhere
  // arrives (after a refused save); never this tab's own saves coming back, and never an older
  // form (a read that left before this tab's last save and came back after it), which would
  // wipe what was chosen since.
  useEffect(() => {
    if (!application.isSuccess || !editable) return;
    const version = app?.version ?? 0;
    if (shown.current !== null && version <= shown.current) return;
    shown.current = version;
    rebase(version);
    form.resetFields();
    if (app) form.setFieldsValue(app.form);
    // An empty 联系电话 shows the account's mobile (the exam card judges what is missing the same way).
    const phone = formAsShown(app?.form ?? {}, userInfo).contactPhone;
    if (phone !== app?.form.contactPhone) form.setFieldsValue({ contactPhone: phone });
    const lost = overwritten.current;
    overwritten.current = null;
    if (lost) setReplaced(replacedFields(lost.typed, lost.base, formAsShown(app?.form ?? {}, userInfo)));
  }, [application.isSuccess, editable, app, form, userInfo, rebase]);

  // The account (its mobile) may arrive after the form was first shown: an empty 联系电话 then
  // takes it once, as the exam card assumes; never again over what the candidate cleared.
  const phoneFilled = useRef(false);
  useEffect(() => {
    if (phoneFilled.current || !editable || !userInfo || !application.isSuccess || shown.current === null) return;
    phoneFilled.current = true;
    if (isEmpty(form.getFieldValue('contactPhone'))) form.setFieldsValue({ contactPhone: formAsShown({}, userInfo).contactPhone });
  }, [editable, userInfo, application.isSuccess, form]);

  // This tab was unloaded (reloaded, closed) with a change not yet saved: it comes back into the
  // fields and is saved on top of the server's version, unless a newer form was saved elsewhere
  // meanwhile. Judged against this visit's own read, never a cached copy; after the effect above
  // has put that read in the fields.
  const keptChecked = useRef(false);
  useEffect(() => {
    if (keptChecked.current || !editable || !application.isSuccess || !application.isFetchedAfterMount) return;
    keptChecked.current = true;
    const kept = takeKeptDraft(exam.id, app ?? null);
    if (kept === 'conflict') {
      setConflict(true);
    } else if (kept) {
      setRestored(true);
      form.setFieldsValue(kept.restore);
      restore(kept, wholeForm(app, form));
    }
  }, [application.isSuccess, application.isFetchedAfterMount, editable, app, form, restore, exam.id]);

  useEffect(() => {
    const profile = last.data;
    if (!profile || !profileEmpty || !editable || prefilledFrom !== null || restored) return;
    form.setFieldsValue(profile.form);
    setPrefilledFrom(profile.examName);
    schedule(wholeForm(app, form));
  }, [last.data, profileEmpty, editable, prefilledFrom, form, schedule, app, restored]);

  // Until this visit's own read has come back, the cached copy may be older than the server's
  // (a pledge or a save made since): fields edited on top of it would be reset when it arrives.
  if (application.isLoading || !application.isFetchedAfterMount) {
    return (
      <MobileContainerCard>
        <Skeleton active paragraph={{ rows: 10 }} />
      </MobileContainerCard>
    );
  }

  async function next() {
    try {
      await form.validateFields();
    } catch {
      return;
    }
    if (!userInfo?.photo) {
      setPhotoMissing(true);
      photoRef.current?.scrollIntoView({ behavior: 'smooth', block: 'center' });
      void message.error('请上传证件照');
      return;
    }
    conflicted.current = false;
    await autosave.flush();
    // Newer elsewhere: stay, so the candidate sees the form that is now saved.
    if (conflicted.current) return;
    void client.invalidateQueries({ queryKey: applicationKeys.mine() });
    void navigate('/job-positions');
  }

  return (
    <div className="fill-info-page">
      <MobileContainerCard>
        <JourneySteps current={1} status={showsReviewOpinion(app?.status) ? 'error' : 'process'} exam={exam} />
        <ExamTitle name={exam.name} />
        {locked ? <Alert type="info" showIcon title={`${locked}（当前为只读）`} /> : editable && <SaveIndicator state={autosave.state} />}
        {app && showsReviewOpinion(app.status) && <ReviewOpinion reason={app.reason} />}
        {conflict && (
          <Alert
            className="review-opinion"
            type="warning"
            showIcon
            title={DRAFT_CONFLICT_TEXT}
            description={
              replaced.length > 0 && (
                <div className="conflict-replaced">
                  以下内容已被其他页面的修改替换，如需保留请重新填写：
                  <ul>
                    {replaced.map((r) => (
                      <li key={r.label}>
                        {r.label}（您刚输入：{r.value}）
                      </li>
                    ))}
                  </ul>
                </div>
              )
            }
            closable
            onClose={() => setConflict(false)}
          />
        )}
        {prefilledFrom && editable && (
          <Alert
            className="review-opinion"
            type="info"
            showIcon
            title={`已带入您在「${prefilledFrom}」中填写的学历、工作经历和联系方式，请逐项核对`}
          />
        )}
      </MobileContainerCard>
      {userInfo && <MobileBaseInfoCard userInfo={userInfo} showTitle={false} />}
      <GroupTitle>证件照</GroupTitle>
      <div ref={photoRef}>
        <MobileContainerCard>
          <IdPhotoField photo={userInfo?.photo ?? ''} locked={locked ? photoLockedText(exam.name, locked) : null} missing={photoMissing} />
        </MobileContainerCard>
      </div>
      {editable ? (
        <Form<ApplicationDraft>
          name="application"
          form={form}
          layout="vertical"
          requiredMark
          onValuesChange={() => autosave.schedule(wholeForm(app, form))}
          scrollToFirstError
        >
          <ApplicationFormFields config={exam.config} />
        </Form>
      ) : (
        <>
          <GroupTitle>报考信息</GroupTitle>
          <MobileContainerCard className="readonly-form">
            <FormSummary form={app?.form ?? {}} fields={exam.config.fields} />
          </MobileContainerCard>
        </>
      )}
      <div className="page-actions">
        {editable ? (
          <Button type="primary" size="large" block onClick={() => void next()}>
            下一步：选择岗位
          </Button>
        ) : (
          <Button type="primary" size="large" block onClick={() => void navigate('/current-exam')}>
            查看报考状态
          </Button>
        )}
      </div>
    </div>
  );
}

/** 填写报考信息: sections from the exam's configuration; the draft saves as the candidate types. */
export default function FillInfoPage() {
  return <ExamGate>{(exam) => <FillForm exam={exam} />}</ExamGate>;
}
