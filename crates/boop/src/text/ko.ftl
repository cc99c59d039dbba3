# boop.: 게임 이름, 변형, 판에 그려지는 말, 클릭마다의 도움말, 결과의 이유(승리는 승자 쪽에서).

game-name = boop.
variant-boop = boop.
variant-boooop = Boooop (유령 고양이)

label-kittens = 새끼 고양이 { $n }마리
label-cats = 고양이 { $n }마리
label-player = 플레이어 { $player }
label-player-to-move = 플레이어 { $player } 차례
label-player-wins = 플레이어 { $player } 승리

step-choose-piece = 자기 풀에서 새끼 고양이나 고양이를 고르세요
step-piece-or-ghost = 새끼 고양이나 고양이를 고르거나, 먼저 유령을 들여보내세요
step-choose-edge = 유령이 침대로 들어올 가장자리를 고르세요
step-place-piece = 빈 칸에 놓으세요
step-graduate-line = 졸업시킬 자기 말 세 개를 한 줄로 고르세요
step-graduate-single = 자기 말 하나를 두 번 눌러 고양이로 되돌리세요
step-graduate = 한 줄 세 개를 졸업시키거나, 말 하나를 두 번 누르세요

end-three-cats = 고양이 세 마리가 한 줄로
end-eight-cats = 고양이 여덟 마리가 모두 침대 위에
end-repetition = 같은 국면이 세 번 나왔습니다
