# GIPF: 게임 이름, 변형, 판에 그려지는 말, 클릭마다의 도움말, 승리 이유(승자 쪽에서).

game-name = GIPF
variant-standard = 표준
variant-basic = 기본
variant-tournament = 토너먼트

label-white-info = 백: 예비 { $reserve } · 잡음 { $captured }
label-black-info = 흑: 예비 { $reserve } · 잡음 { $captured }
label-to-move = 차례
label-winner = 승리
label-entry-start = GIPF 말을 먼저 넣어야 함
label-entry-gipf = GIPF 말 또는 단일 말
label-entry-singles = 단일 말만
label-gipf-piece = GIPF 말
label-single = 단일 말
label-done = 완료
label-end-turn = 턴 종료

step-choose-kind = 넣을 말을 고르세요: GIPF 말 또는 단일 말
step-choose-dot = 말이 들어갈 점을 고르세요
step-choose-push = 밀어 넣을 방향을 고르세요
step-choose-row = 제거할 줄을 고르세요: 줄의 한쪽 끝을 누르세요
step-choose-row-end = 줄의 다른 쪽 끝을 누르세요
step-keep-gipf = 남길 GIPF 말을 고른 뒤 완료를 누르세요
step-done = 완료를 눌러 줄을 제거하세요
step-end-turn = 턴을 끝내세요
step-row-or-push = 줄을 제거하거나, 말이 들어갈 점을 고르세요
step-row-or-end = 줄을 더 제거하거나, 턴을 끝내세요

end-no-reserve = 상대의 예비 말이 모두 떨어졌습니다
end-no-gipf = 상대가 마지막 GIPF 말을 잃었습니다

player-P1 = 백
player-P2 = 흑
