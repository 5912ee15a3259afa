import { EyeInvisibleOutlined, EyeOutlined } from '@ant-design/icons';
import { HINT_ANSWER_MASK, type UserInfo } from '@zhikaoyun/shared';
import { useState } from 'react';
import { useSysStore } from '../lib/store';
import { InfoRows, NOT_SET } from './InfoRows';
import { buttonClass } from './plain/Button';
import { PendingLine } from './plain/Skeleton';
import { UserAvatar } from './UserAvatar';

export const PERSONAL_INFO_TITLE = '个人信息';

export interface MobileUserInfoCardProps {
  /** null while not known yet (a page rendered before its data): the card at its size, values pending. */
  userInfo: UserInfo | null;
  /** Show the title: the exam name, or else 个人信息. */
  showTitle?: boolean;
  /**
   * The server sends only the mask of the hint answer (6 dots when one is set). This fetches the
   * answer itself when 显示 is pressed (asking for the password first); null when cancelled.
   * Without it the card can show only an answer it was given.
   */
  revealAnswer?: () => Promise<string | null>;
}

/** A value the card does not have yet. */
const PENDING = <PendingLine />;

/** The card as it will be, with bars for its values: the server's HTML of the personal center. */
function PendingUserInfoCard({ showTitle }: { showTitle: boolean }) {
  const examName = useSysStore((s) => s.examName);
  return (
    <section className="mobile-card user-info-card is-pending" aria-label={PERSONAL_INFO_TITLE} aria-busy="true">
      {showTitle && <h2 className="mobile-card__title">{examName || PERSONAL_INFO_TITLE}</h2>}
      <div className="user-info-card__body">
        <UserAvatar />
        <div className="user-info-card__main">
          <p className="user-info-card__name">{PENDING}</p>
          <InfoRows rows={['密保问题', '身份证号', '提示答案', '联系电话', '电子邮箱'].map((label) => ({ label, value: PENDING }))} />
        </div>
      </div>
    </section>
  );
}

/**
 * The spec's mobile user info card: the hint answer hides behind 6 dots until toggled. An answer
 * fetched to be shown lives in this card only (never in the store or session storage) and is
 * forgotten when hidden again.
 */
export function MobileUserInfoCard({ userInfo, showTitle = true, revealAnswer }: MobileUserInfoCardProps) {
  if (!userInfo) return <PendingUserInfoCard showTitle={showTitle} />;
  return <UserInfoCard userInfo={userInfo} showTitle={showTitle} revealAnswer={revealAnswer} />;
}

function UserInfoCard({
  userInfo,
  showTitle,
  revealAnswer,
}: Required<Pick<MobileUserInfoCardProps, 'showTitle'>> & { userInfo: UserInfo; revealAnswer?: () => Promise<string | null> }) {
  const examName = useSysStore((s) => s.examName);
  const [shown, setShown] = useState<{ for: UserInfo; answer: string } | null>(null);
  const [asking, setAsking] = useState(false);
  const isSet = userInfo.answer !== '';
  const given = userInfo.answer !== HINT_ANSWER_MASK ? userInfo.answer : null;
  // An answer shown for an older userInfo (before an edit) is not this one's.
  const visible = shown && shown.for === userInfo ? shown.answer : null;
  const canShow = isSet && (given !== null || revealAnswer !== undefined);

  async function toggle() {
    if (visible !== null) {
      setShown(null);
      return;
    }
    if (given !== null) {
      setShown({ for: userInfo, answer: given });
      return;
    }
    if (!revealAnswer) return;
    setAsking(true);
    try {
      const answer = await revealAnswer();
      if (answer !== null) setShown({ for: userInfo, answer });
    } finally {
      setAsking(false);
    }
  }

  return (
    <section className="mobile-card user-info-card" aria-label={showTitle ? undefined : PERSONAL_INFO_TITLE}>
      {showTitle && <h2 className="mobile-card__title">{examName || PERSONAL_INFO_TITLE}</h2>}
      <div className="user-info-card__body">
        <UserAvatar photo={userInfo.photo} />
        <div className="user-info-card__main">
          <p className="user-info-card__name">{userInfo.name}</p>
          <InfoRows
            rows={[
              { label: '密保问题', value: userInfo.question },
              { label: '身份证号', value: userInfo.idno },
              {
                label: '提示答案',
                value: (
                  <span className="hint-answer">
                    <span className={isSet ? 'hint-answer__text' : 'info-rows__empty'} data-testid="hint-answer">
                      {isSet ? (visible ?? HINT_ANSWER_MASK) : NOT_SET}
                    </span>
                    {canShow && (
                      // A plain button styled as antd's small link button: the personal center is
                      // built without antd's runtime.
                      <button
                        type="button"
                        className={buttonClass({ link: true, loading: asking })}
                        aria-pressed={visible !== null}
                        aria-busy={asking || undefined}
                        onClick={() => void toggle()}
                      >
                        {visible !== null ? <EyeInvisibleOutlined aria-hidden /> : <EyeOutlined aria-hidden />}
                        <span>{visible !== null ? '隐藏' : '显示'}</span>
                      </button>
                    )}
                  </span>
                ),
              },
              { label: '联系电话', value: userInfo.mobile },
              { label: '电子邮箱', value: userInfo.email },
            ]}
          />
        </div>
      </div>
    </section>
  );
}
