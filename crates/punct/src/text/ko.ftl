# PÜNCT: 게임 이름, 변형, 판에 그려지는 말, 클릭마다의 도움말, 결과의 이유(승리는 승자 쪽에서).

game-name = PÜNCT
variant-standard = 표준
variant-basic = 기본

label-white = 백
label-black = 흑
label-white-to-move = 백 차례
label-black-to-move = 흑 차례
label-white-wins = 백 승리
label-black-wins = 흑 승리
label-pass = 패스

step-place-or-move = 보급에서 조각을 고르거나, 판 위의 자기 조각을 골라 옮기세요
step-choose-piece = 보급에서 조각을 고르세요
step-choose-move = 옮길 자기 조각을 판 위에서 고르세요
step-choose-point = 조각의 PÜNCT 점이 놓일 점을 고르세요
step-choose-destination = PÜNCT 점이 갈 곳을 고르세요 (같은 점을 누르면 제자리에서 돌립니다)
step-choose-orientation = 방향을 고르세요: 다른 점이 놓일 자리를 누르세요
step-finish-piece = 마지막 점이 놓일 자리를 누르세요
step-pass = 놓거나 옮길 수 없습니다: 패스하세요

end-connection = 마주 보는 두 변을 연결했습니다
end-central = 조각이 다 떨어졌을 때 중앙 점을 더 많이 차지했습니다
end-central-tie = 조각이 다 떨어졌고 중앙 점의 수가 같습니다
end-pieces-out = 연결 없이 조각이 다 떨어졌습니다
end-passes = 두 플레이어가 모두 패스했습니다
end-repetition = 같은 국면이 세 번 나왔습니다

player-P1 = 백
player-P2 = 흑
