import type { UserInfo } from '@zhikaoyun/shared';
import { useSysStore } from '../lib/store';
import { InfoRows } from './InfoRows';
import { PERSONAL_INFO_TITLE } from './MobileUserInfoCard';
import { UserAvatar } from './UserAvatar';

/** The base-info variant: photo, the name in large type, sex, ID number, birth date, phone. */
export function MobileBaseInfoCard({
  userInfo,
  showTitle = true,
  mobileLabel = '联系电话',
}: {
  userInfo: UserInfo;
  showTitle?: boolean;
  /** Where the form has its own 联系电话 too, the account's mobile is named 账号手机. */
  mobileLabel?: string;
}) {
  const examName = useSysStore((s) => s.examName);
  return (
    <section className="mobile-card base-info-card" aria-label={showTitle ? undefined : PERSONAL_INFO_TITLE}>
      {showTitle && <h2 className="mobile-card__title">{examName || PERSONAL_INFO_TITLE}</h2>}
      <div className="base-info-card__body">
        <UserAvatar photo={userInfo.photo} size={84} />
        <div className="base-info-card__main">
          <p className="base-info-card__name">{userInfo.name}</p>
          <InfoRows
            rows={[
              { label: '性别', value: userInfo.sex },
              { label: '身份证号', value: userInfo.idno },
              { label: '出生日期', value: userInfo.birthday },
              { label: mobileLabel, value: userInfo.mobile },
            ]}
          />
        </div>
      </div>
    </section>
  );
}
