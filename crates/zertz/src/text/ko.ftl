# ZÈRTZ: 게임 이름, 변형, 판에 그려지는 말, 클릭마다의 도움말, 결과의 이유(승리는 승자 쪽에서).

game-name = ZÈRTZ
variant-37 = 고리 37개
variant-40 = 고리 40개
variant-43 = 고리 43개
variant-44 = 고리 44개
variant-48 = 고리 48개
variant-61 = 고리 61개
variant-blitz = 블리츠

label-pool = 공용 구슬
label-captures = 플레이어 { $player } 획득
label-to-move = 차례
label-winner = 승리

step-choose-colour = 놓을 구슬의 색을 고르세요
step-place-marble = 빈 고리에 구슬을 놓으세요
step-remove-ring = 가장자리의 빈 고리 하나를 치우세요
step-choose-jumper = 잡기: 뛰어넘을 구슬을 고르세요
step-jump = 구슬을 뛰어넘어 그 뒤의 빈 고리로 가세요

end-full-board = 마지막 고리가 채워졌습니다
end-white-4 = 흰 구슬 4개를 잡았습니다
end-grey-5 = 회색 구슬 5개를 잡았습니다
end-black-6 = 검은 구슬 6개를 잡았습니다
end-each-3 = 모든 색의 구슬을 3개씩 잡았습니다
end-white-3 = 흰 구슬 3개를 잡았습니다
end-grey-4 = 회색 구슬 4개를 잡았습니다
end-black-5 = 검은 구슬 5개를 잡았습니다
end-each-2 = 모든 색의 구슬을 2개씩 잡았습니다
end-no-move = 상대가 둘 수 있는 수가 없습니다
end-repetition = 같은 국면이 세 번 나왔습니다
