# 서버 자체 메시지(인수·복수형 포함)와 게임 페이지가 형식화하는 메시지.

step-choose = 강조된 항목 중 하나를 고르세요
help-wait = 상대의 차례를 기다리세요.
help-step-back = Esc 또는 오른쪽 클릭: 한 단계 뒤로.
help-confirm = 강조된 항목을 눌러 계속하거나 아래에서 확정하세요.
turns = { $n ->
   *[other] { $n }수
}
moves-legal = { $n ->
   *[other] 둘 수 있는 수 { $n }개
}
player-P1 = 플레이어 1
player-P2 = 플레이어 2
to-move = { $player } 차례
result-you-won = 이겼습니다
result-you-lost = 졌습니다
result-wins = { $player } 승리
result-draw = 무승부
reason-resigned = { $player } 기권
reason-agreed = 합의에 의해
turn-number = { $n }번째 수
coordinates = 좌표
flip-board = 판 뒤집기
new-game = 새 게임
game-over = 게임 종료
live = 진행 중
finished = 종료됨
you = 나
computer-level = 컴퓨터, { $level }단계
opponent-friend = 친구(초대 링크)
opponent-hotseat = 한 화면에서
waiting-for-you = 내 차례
waiting-for-them = 상대 차례
started = { $date } 시작
board-item = { $id }
board = 판
rematch = 재대국 (색 바꾸기)
nav-first = 처음으로
nav-previous = 이전 수
nav-next = 다음 수
nav-last = 마지막 수
invite-link = 초대 링크
